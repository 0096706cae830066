/**
 * How the reference's request samples are written: the tabs Redoc shows (curl, TypeScript, Python,
 * in that order), each SDK's imports gathered at the top with its client built the same way, and the
 * width the sample panel shows without scrolling. openapi-samples.ts and openapi-webhooks.ts write
 * their samples with these.
 */

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface SampleSet {
  curl: string;
  typescript: string;
  python: string;
}

/** The three tabs, in the order the reference shows them. */
export function codeSamples(set: SampleSet): CodeSample[] {
  return [
    { lang: 'shell', label: 'curl', source: set.curl },
    { lang: 'typescript', label: 'TypeScript', source: set.typescript },
    { lang: 'python', label: 'Python', source: set.python },
  ];
}

/** What the sample panel at /docs shows without scrolling in a 1440-pixel window (api-reference.ts). */
export const SAMPLE_COLUMNS = 63;

/** A body's leading import lines, and the rest (the samples gather every import at the top). */
function splitImports(body: string, isImport: (line: string) => boolean): [string[], string] {
  const lines = body.split('\n');
  const count = lines.findIndex((line) => !isImport(line));
  const own = lines.slice(0, count === -1 ? lines.length : count);
  return [own, lines.slice(own.length).join('\n').replace(/^\n+/, '')];
}

const TS_CLIENT =
  "const platen = new Platen({\n  baseUrl: 'https://platen.example.com',\n  apiKey: process.env.PLATEN_API_KEY!,\n});";
const PY_CLIENT =
  'platen = Platen(\n    base_url="https://platen.example.com",\n    api_key=os.environ["PLATEN_API_KEY"],\n)';

/**
 * A TypeScript sample: the body's own imports, then the SDK's `imports`, the client (unless
 * `client` is false) and the rest of `body`.
 */
export function typescript(imports: readonly string[], body: string, client = true): string {
  const [own, rest] = splitImports(body, (line) => line.startsWith('import '));
  const oneLine = `import { ${imports.join(', ')} } from '@platen/client';`;
  const sdk =
    oneLine.length <= SAMPLE_COLUMNS
      ? oneLine
      : `import {\n  ${imports.join(',\n  ')},\n} from '@platen/client';`;
  const parts = [[...own, sdk].join('\n'), ...(client ? [TS_CLIENT] : []), rest];
  return `${parts.join('\n\n')}\n`;
}

/**
 * A Python sample: the standard library's imports (`os` and the body's), the packages' (the body's
 * and `platen`'s), the client (unless `client` is false) and the rest of `body`.
 */
export function python(imports: readonly string[], body: string, client = true): string {
  const [own, rest] = splitImports(body, (line) => /^(import|from) /.test(line));
  const stdlib = ['import os', ...own.filter((line) => line.startsWith('import '))].sort();
  const packages = [
    ...own.filter((line) => line.startsWith('from ')),
    `from platen import ${imports.join(', ')}`,
  ].sort();
  const parts = [stdlib.join('\n'), packages.join('\n'), ...(client ? [PY_CLIENT] : []), rest];
  return `${parts.join('\n\n')}\n`;
}
