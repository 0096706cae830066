/**
 * The API reference at /docs against a real server: the page is Platen's, under a Content-Security-
 * Policy that lets it reach only its own origin; Redoc's bundle comes from the same origin with
 * long cache headers; /openapi.json carries curl, TypeScript and Python samples for the main
 * operations and the webhook events; every curl sample runs as written against the server; and in
 * Chromium the page renders its operations and samples while every request stays on the origin and
 * the policy refuses nothing. PLATEN_UPDATE_SCREENSHOTS=1 saves docs/screenshots/api-reference.png.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type BrowserContext, chromium } from 'playwright-core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_COLUMNS } from '../src/http/code-samples.ts';
import { WEBHOOK_EVENTS } from '../src/webhooks/index.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';
import { CHROMIUM_PATH, chromiumMissing } from './harness/studio.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UPDATE_SCREENSHOT = process.env.PLATEN_UPDATE_SCREENSHOTS === '1';
const run = promisify(execFile);

/** The operations the reference shows samples for (the brief's list, not the module's own). */
const SAMPLED = [
  'renderTemplate',
  'getRender',
  'renderTemplateBySignedUrlPng',
  'renderTemplateBySignedUrlJpeg',
  'renderTemplateBySignedUrlPdf',
  'createBatch',
  'createBatchFromCsv',
  'getBatch',
  'listTemplates',
  'createTemplate',
  'getTemplate',
  'saveTemplate',
];

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Operation {
  operationId: string;
  summary: string;
  'x-codeSamples'?: Sample[];
  [key: string]: unknown;
}
interface Document {
  info: { title: string; 'x-logo'?: { url: string } };
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: Operation }>;
  tags: { name: string }[];
  components: { schemas: Record<string, unknown> };
}

let server: TestServer;
let spec: Document;

beforeAll(async () => {
  server = await startTestServer();
  spec = (await http(server.base, 'GET', '/openapi.json')).json;
}, 60_000);
afterAll(() => server?.close());

const operations = () =>
  Object.values(spec.paths).flatMap((methods) => Object.values(methods)) as Operation[];
const operation = (id: string) => {
  const found = operations().find((op) => op.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const sample = (op: Operation, label: string) => {
  const found = op['x-codeSamples']?.find((s) => s.label === label);
  if (!found) throw new Error(`${op.operationId} has no ${label} sample`);
  return found.source;
};

/** Syntax errors of a TypeScript sample (an ES module: top-level await is allowed). */
function typescriptSyntaxErrors(source: string): string[] {
  const out = ts.transpileModule(source, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Syntax errors of Python samples, by Python's own parser (null when python3 is absent). */
async function pythonSyntaxErrors(sources: Record<string, string>): Promise<string | null> {
  const check =
    'import ast, json, sys\n' +
    'for name, src in json.load(sys.stdin).items():\n' +
    '    try: ast.parse(src)\n' +
    '    except SyntaxError as e: print(name, e)\n';
  try {
    const child = execFile('python3', ['-c', check]);
    child.stdin?.end(JSON.stringify(sources));
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
    });
    await new Promise((resolve, reject) => child.on('close', resolve).on('error', reject));
    return out;
  } catch {
    return null;
  }
}

describe('/docs and its bundle', () => {
  it('answers Platen’s page under a policy that allows only its own origin', async () => {
    const res = await fetch(`${server.base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<title>Platen API reference</title>');
    expect(html).not.toMatch(/swagger|fonts\.googleapis|https?:\/\//i);

    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...sources] = d.trim().split(/\s+/);
        return [name, sources];
      }),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['img-src']).toEqual(['data:']);
    expect(directives['worker-src']).toEqual(['blob:']);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    // Styles only under this response's nonce, the one the init script carries to Redoc.
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    // Scripts too: the two <script> elements of this response, nothing else of the origin.
    expect(directives['script-src']).toEqual([`'nonce-${nonce}'`]);
    expect(html).toContain(`nonce="${nonce}"`);
    const again = await fetch(`${server.base}/docs`);
    expect(again.headers.get('content-security-policy')).not.toBe(csp);
  });

  it('serves Redoc’s bundle from the same origin, hashed and cached for a year', async () => {
    const html = await (await fetch(`${server.base}/docs`)).text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(scripts).toHaveLength(2);
    for (const src of scripts) expect(src).toMatch(/^\/docs\/assets\/[a-z.]+\.[0-9a-f]{16}\.js$/);
    const bundlePath = scripts.find((src) => src.includes('redoc.standalone')) ?? '';
    const plain = await fetch(`${server.base}${bundlePath}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await plain.text();
    expect(body.length).toBeGreaterThan(500_000);
    expect(body).toContain('Redoc');
    expect(body).not.toContain('sourceMappingURL=redoc.standalone.js.map');
    // Redoc's footer logo would come from Redocly's CDN: the served bundle names no such image.
    expect(body).not.toContain('cdn.redoc.ly');
    // fetch asks for gzip and undoes it: the same script, a third of the bytes on the wire.
    const zipped = await fetch(`${server.base}${bundlePath}`);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(await zipped.text()).toBe(body);
    const init = await (await fetch(`${server.base}${scripts[1]}`)).text();
    expect(init).toContain("Redoc.init('/openapi.json'");
    // Any other name under the assets path is not a file.
    const other = await fetch(`${server.base}/docs/assets/redoc.standalone.0000000000000000.js`);
    expect(other.status).toBe(404);
    expect((await other.json()).error.code).toBe('NOT_FOUND');
  });
});

describe('/openapi.json for the reference', () => {
  it('carries curl, TypeScript and Python samples for the main operations', () => {
    for (const id of SAMPLED) {
      const samples = operation(id)['x-codeSamples'] ?? [];
      expect(
        samples.map((s) => [s.label, s.lang]),
        id,
      ).toEqual([
        ['curl', 'shell'],
        ['TypeScript', 'typescript'],
        ['Python', 'python'],
      ]);
      const curl = sample(operation(id), 'curl');
      expect(curl, id).toMatch(/^curl /m);
      // A signed URL is its own credential; everything else sends the API key.
      if (id.startsWith('renderTemplateBySignedUrl')) expect(curl).not.toContain('PLATEN_API_KEY');
      else expect(curl, id).toContain('-H "Authorization: Bearer $PLATEN_API_KEY"');
      expect(sample(operation(id), 'TypeScript'), id).toContain("from '@platen/client'");
      expect(sample(operation(id), 'Python'), id).toMatch(/^from platen import /m);
    }
    expect(sample(operation('saveTemplate'), 'TypeScript')).toContain('{ ifMatch: revision }');
    expect(sample(operation('saveTemplate'), 'Python')).toContain('if_match=template["revision"]');
    expect(sample(operation('renderTemplate'), 'TypeScript')).toMatch(
      /e instanceof PlatenError[\s\S]*e\.code !== 'INSUFFICIENT_CREDITS'/,
    );
    // Every line fits the sample panel without scrolling (in a 1440-pixel window).
    const samples = [...operations(), ...Object.values(spec.webhooks ?? {}).map((item) => item.post)].flatMap(
      (op) => op['x-codeSamples'] ?? [],
    );
    const long = samples.flatMap((s) => s.source.split('\n')).filter((line) => line.length > SAMPLE_COLUMNS);
    expect(long).toEqual([]);
    expect(sample(operation('renderTemplateBySignedUrlPdf'), 'TypeScript')).toContain("format: 'pdf'");
    // Operations outside the list have none (the reference stays as the routes describe it).
    expect(operation('deleteAsset')['x-codeSamples']).toBeUndefined();
  });

  it('lists every webhook event with its headers, body and verification in both SDKs', () => {
    const webhooks = spec.webhooks ?? {};
    expect(Object.keys(webhooks)).toEqual([...WEBHOOK_EVENTS]);
    expect(spec.tags.map((t) => t.name)).toContain('webhook events');
    for (const [type, item] of Object.entries(webhooks)) {
      const op = item.post;
      expect(op.tags).toEqual(['webhook events']);
      const headers = (op.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`);
      expect(headers, type).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
      ]);
      const body = (
        op.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown> } }> }
      ).content['application/json']?.schema;
      expect(body?.properties.type).toEqual({ type: 'string', const: type });
      expect(op['x-codeSamples']?.map((s) => s.label)).toEqual(['TypeScript', 'Python']);
      expect(sample(op, 'TypeScript')).toContain('const secret = process.env.PLATEN_WEBHOOK_SECRET!;');
      expect(sample(op, 'TypeScript')).toContain('verifyWebhook(secret, req.headers, body)');
      expect(sample(op, 'TypeScript')).toContain('e instanceof WebhookVerificationError');
      expect(sample(op, 'Python')).toContain('SECRET = os.environ["PLATEN_WEBHOOK_SECRET"]');
      expect(sample(op, 'Python')).toContain('verify_webhook(SECRET, request.headers, body)');
      expect(sample(op, 'Python')).toContain('except WebhookVerificationError:');
      expect(sample(op, 'TypeScript')).toContain(`event.type === '${type}'`);
    }
    // batch.completed carries the batch without its rows, derived from the Batch schema.
    const summary = spec.components.schemas.BatchSummary as { properties: object; required: string[] };
    expect(Object.keys(summary.properties)).not.toContain('rows');
    expect(summary.required).toContain('progress');
  });

  it('points every reference at a component the document holds, and shows Platen’s logo', () => {
    const refs = [...JSON.stringify(spec).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, name] of refs) expect(spec.components.schemas, name).toHaveProperty(name ?? '');
    expect(spec.info['x-logo']?.url).toMatch(/^data:image\/svg\+xml,/);
  });

  it('has samples that parse: TypeScript by the compiler, Python by Python', async () => {
    const all = [...operations(), ...Object.values(spec.webhooks ?? {}).map((item) => item.post)];
    const python: Record<string, string> = {};
    for (const op of all) {
      for (const s of op['x-codeSamples'] ?? []) {
        if (s.label === 'TypeScript') expect(typescriptSyntaxErrors(s.source), op.operationId).toEqual([]);
        if (s.label === 'Python') python[op.operationId] = s.source;
      }
    }
    expect(Object.keys(python).length).toBe(SAMPLED.length + WEBHOOK_EVENTS.length);
    const errors = await pythonSyntaxErrors(python);
    if (errors === null) console.log('Python samples not parsed: python3 is not installed');
    else expect(errors).toBe('');
  });
});

describe('the curl samples, run as written', () => {
  let dir = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'platen-curl-'));
    const { workspaceId, key } = await workspaceWithKey(server.base, { credits: 50 });
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 'Samples', document: simpleDocument('{{headline}}') },
      headers: bearer(key),
    });
    const secret = await admin(server.base, 'POST', `/workspaces/${workspaceId}/url-signing-secrets`, {});
    expect(secret.status).toBe(201);
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PLATEN_BASE_URL: server.base,
      PLATEN_API_KEY: key,
      PLATEN_URL_SECRET: secret.json.secret,
      TEMPLATE_ID: template.json.id,
    };
    await writeFile(join(dir, 'rows.csv'), 'headline\nParis\nRome\n');
    await writeFile(
      join(dir, 'draft.json'),
      JSON.stringify({ document: simpleDocument('Draft {{headline}}') }),
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A sample's stdout; curl fails the script on any error status (and says why on stderr). */
  async function curl(id: string, label = 'curl', extra: Record<string, string> = {}): Promise<string> {
    const script = `set -eo pipefail
curl() { command curl --silent --show-error --fail-with-body "$@"; }
${sample(operation(id), label)}`;
    const { stdout } = await run('bash', ['-c', script], { cwd: dir, env: { ...env, ...extra } });
    return stdout;
  }

  it('templates: list, create, get (with its ETag) and save with If-Match', async () => {
    expect(JSON.parse(await curl('listTemplates')).items).toHaveLength(1);
    const created = JSON.parse(await curl('createTemplate'));
    expect(created).toMatchObject({ name: 'Promo card', width: 1080, height: 1080 });
    const got = await curl('getTemplate');
    expect(got).toMatch(/^etag: "1"\r?$/im);
    const saved = JSON.parse(await curl('saveTemplate', 'curl', { REVISION: '1' }));
    expect(saved.revision).toBe(2);
    // The same If-Match again names an older revision: the sample's comment says 412.
    await expect(curl('saveTemplate', 'curl', { REVISION: '1' })).rejects.toThrow(/412/);
  });

  it('renders, then reads the render back', async () => {
    const result = JSON.parse(await curl('renderTemplate'));
    expect(result).toMatchObject({ format: 'png', templateId: env.TEMPLATE_ID });
    expect(result.credits.charged).toBe(1);
    const render = JSON.parse(await curl('getRender', 'curl', { RENDER_ID: result.id }));
    expect(render.id).toBe(result.id);
  });

  it('signs render URLs with openssl that the server accepts, in each format', async () => {
    const magic = { png: '89504e47', jpeg: 'ffd8ff', pdf: '25504446' };
    for (const [format, bytes] of Object.entries(magic)) {
      const id = `renderTemplateBySignedUrl${format[0]?.toUpperCase()}${format.slice(1)}`;
      await curl(id);
      const file = await readFile(join(dir, `card.${format}`));
      expect(file.subarray(0, bytes.length / 2).toString('hex'), format).toBe(bytes);
    }
  });

  it('creates batches from JSON and from CSV, and reads one back', async () => {
    const batch = JSON.parse(await curl('createBatch'));
    expect(batch).toMatchObject({ total: 2, format: 'png' });
    const fromCsv = JSON.parse(await curl('createBatchFromCsv'));
    expect(fromCsv.total).toBe(2);
    const read = JSON.parse(await curl('getBatch', 'curl', { BATCH_ID: batch.id }));
    expect(read.id).toBe(batch.id);
    expect(read.rows.map((row: { row: number }) => row.row)).toEqual([1, 2]);
  });
});

if (chromiumMissing) console.log(`API reference browser test skipped: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== null)('/docs in Chromium', () => {
  let context: BrowserContext;
  let profile = '';

  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), 'platen-chromium-'));
    // A fresh profile, and nothing of Chromium's own (updates, sync, QUIC probes) on the wire.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      viewport: { width: 1440, height: 900 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('renders the operations and their samples, asking nothing of any other origin', async () => {
    const page = await context.newPage();
    const requests: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    await page.goto(`${server.base}/docs`);
    const render = page.locator('[id="tag/renders/operation/renderTemplate"]');
    await render.getByRole('heading', { name: /Render a template/ }).waitFor({ timeout: 30_000 });
    await render.scrollIntoViewIfNeeded();
    const typescriptTab = render.getByRole('tab', { name: 'TypeScript' });
    await typescriptTab.waitFor({ state: 'visible' });
    await typescriptTab.click();
    await render.getByText('platen.render(templateId, {').waitFor({ state: 'visible' });
    expect(await render.getByRole('tab').allTextContents()).toEqual(
      expect.arrayContaining(['curl', 'TypeScript', 'Python']),
    );
    // The webhook events are listed too.
    await page.getByText('A background render is done').first().waitFor({ state: 'attached' });
    // Search runs in Redoc's blob: worker: results prove the worker was allowed.
    await page.getByPlaceholder('Search...').fill('batch');
    await page.locator('[data-role="search:results"] li').first().waitFor({ timeout: 10_000 });

    const shot = UPDATE_SCREENSHOT
      ? join(ROOT, 'docs/screenshots/api-reference.png')
      : join(ROOT, 'test/.tmp/api-reference.png');
    await page.getByPlaceholder('Search...').fill('');
    await render.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500); // the side menu's chevrons turn for a moment
    await mkdir(join(shot, '..'), { recursive: true });
    await page.screenshot({ path: shot });

    const origin = new URL(server.base).origin;
    const foreign = requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
    expect(foreign).toEqual([]);
    expect(requests).toContain(`${origin}/openapi.json`);
    expect(requests.some((url) => url.includes('/docs/assets/redoc.standalone.'))).toBe(true);
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
    expect(consoleErrors.filter((text) => /Content.Security.Policy|Refused to/i.test(text))).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  }, 90_000);
});
