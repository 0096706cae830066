/**
 * The reference's TypeScript samples compile against the SDK as users install it: every TypeScript
 * `x-codeSamples` entry of the served /openapi.json (operations and webhook events) is type-checked
 * by the TypeScript compiler against `@platen/client`'s published declarations (its built `dist/`,
 * resolved through node_modules as a user's project resolves it), with Node's types. A sample that
 * calls a method the SDK does not have, passes a field it does not take or reads one its answer does
 * not carry fails here, so the samples cannot drift from the SDK. The webhook samples use express,
 * which the project does not depend on: a declaration of the part they use stands in.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startTestServer, type TestServer } from './harness/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the samples pretend to live: inside the repository, so `@platen/client` resolves as installed. */
const SAMPLES_DIR = join(ROOT, 'test/.tmp/samples');
/** The part of express's types the webhook samples use (the project does not install express). */
const EXPRESS_STAND_IN = `declare module 'express' {
  interface Request {
    body: Buffer;
    headers: Record<string, string | string[] | undefined>;
  }
  interface Response {
    sendStatus(status: number): Response;
  }
  type Handler = (req: Request, res: Response) => unknown;
  interface App {
    post(path: string, ...handlers: Handler[]): void;
  }
  interface Express {
    (): App;
    raw(options: { type: string }): Handler;
  }
  const express: Express;
  export default express;
}
`;

interface Sample {
  label: string;
  source: string;
}
type Operation = { operationId: string; 'x-codeSamples'?: Sample[] };

let server: TestServer;
let samples: Map<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  const spec = (await http(server.base, 'GET', '/openapi.json')).json as {
    paths: Record<string, Record<string, Operation>>;
    webhooks?: Record<string, { post: Operation }>;
  };
  const operations = [
    ...Object.values(spec.paths).flatMap((methods) => Object.values(methods)),
    ...Object.values(spec.webhooks ?? {}).map((hook) => hook.post),
  ];
  samples = new Map(
    operations.flatMap((op) => {
      const sample = op['x-codeSamples']?.find((s) => s.label === 'TypeScript');
      return sample ? [[join(SAMPLES_DIR, `${op.operationId}.ts`), sample.source] as const] : [];
    }),
  );
}, 60_000);
afterAll(() => server?.close());

function typeErrors(files: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  };
  const virtual = new Map(files);
  virtual.set(join(SAMPLES_DIR, 'express.d.ts'), EXPRESS_STAND_IN);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.directoryExists = (name) =>
    name === SAMPLES_DIR || name.startsWith(`${SAMPLES_DIR}/`) || ts.sys.directoryExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, languageVersion, onError) => {
    const text = virtual.get(name);
    return text === undefined
      ? getSourceFile(name, languageVersion, onError)
      : ts.createSourceFile(name, text, languageVersion, true);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(dirname(SAMPLES_DIR).length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the reference’s TypeScript samples', () => {
  it('exist for the main operations and the webhook events', () => {
    const names = [...samples.keys()].map((path) => path.slice(SAMPLES_DIR.length + 1));
    for (const id of ['renderTemplate', 'createBatchFromCsv', 'renderTemplateBySignedUrlPng', 'saveTemplate'])
      expect(names).toContain(`${id}.ts`);
    expect(names.some((name) => name.startsWith('on'))).toBe(true);
  });

  it('type-check against @platen/client as installed', () => {
    expect(typeErrors(samples)).toEqual([]);
  }, 60_000);

  it('a sample that misuses the SDK is caught (the check can fail)', () => {
    const broken = new Map([
      [
        join(SAMPLES_DIR, 'broken.ts'),
        "import { Platen } from '@platen/client';\n" +
          "const platen = new Platen({ baseUrl: 'https://x', apiKey: 'k' });\n" +
          "await platen.render('tpl_1', { format: 'bmp' });\n",
      ],
    ]);
    expect(typeErrors(broken).join('\n')).toMatch(/broken\.ts:3 .*bmp/);
  }, 60_000);
});
