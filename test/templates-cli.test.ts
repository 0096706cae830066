/**
 * `platen templates pull|diff|push` as a person runs it: the built CLI as a child process against a
 * real server, on real folders. Each test has its own workspace, so none sees another's templates.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEJAVU_TTF, PNG_1X1, simpleDocument } from './fixtures/samples.ts';
import {
  bearer,
  freePort,
  http,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';

let server: TestServer;
const folders: string[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'platen-templates-'));
  folders.push(dir);
  return dir;
}

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

// Asynchronous on purpose: the server under test runs in this process's event loop.
function platen(key: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'node',
      ['bin/platen.js', 'templates', ...args],
      { env: { ...process.env, PLATEN_URL: server.base, PLATEN_API_KEY: key } },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The change lines of a diff (its summary aside). */
const changeLines = (run: Run) => run.stdout.split('\n').filter((line) => /^[+~!-] /.test(line));

function expectOneLineError(run: Run, status: number, pattern: RegExp): void {
  expect(run.status, run.stdout + run.stderr).toBe(status);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at |node:internal/);
}

/** A workspace holding "Promo" (an uploaded image as background and element, an uploaded font) and "Second". */
async function seededWorkspace() {
  const ws = await workspaceWithKey(server.base);
  const auth = { headers: bearer(ws.key) };
  const upload = (raw: Buffer, type: string, query = '') =>
    http(server.base, 'POST', `/v1/assets${query}`, {
      raw,
      headers: { ...auth.headers, 'content-type': type },
    });
  const image = (await upload(PNG_1X1, 'image/png')).json;
  const font = (await upload(DEJAVU_TTF(), 'font/ttf', '?family=Brand%20Sans')).json;
  const document = simpleDocument('Big sale');
  const [page] = document.pages;
  if (!page) throw new Error('no page');
  Object.assign(page, { background: { src: `asset:${image.id}` } });
  Object.assign(page.elements[1] ?? {}, { fontFamily: 'Brand Sans', fontSize: 72 });
  (page.elements as unknown[]).push({
    id: 'logo',
    type: 'image',
    x: 10,
    y: 10,
    width: 20,
    height: 20,
    src: `asset:${image.id}`,
  });
  const promo = await http(server.base, 'POST', '/v1/templates', {
    ...auth,
    body: { name: 'Promo', document },
  });
  const second = await http(server.base, 'POST', '/v1/templates', {
    ...auth,
    body: { name: 'Second card', document: simpleDocument() },
  });
  expect([image.id, font.id, promo.status, second.status]).toEqual([
    expect.any(String),
    expect.any(String),
    201,
    201,
  ]);
  return { ...ws, imageId: image.id as string, fontId: font.id as string, promoId: promo.json.id as string };
}

const getTemplate = async (key: string, id: string) =>
  (await http(server.base, 'GET', `/v1/templates/${id}`, { headers: bearer(key) })).json;

/** Every file of the folder with its bytes and modification time. */
function snapshot(dir: string): Record<string, { text: string; mtime: number }> {
  const files: Record<string, { text: string; mtime: number }> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files[relative(dir, path)] = { text: readFileSync(path, 'latin1'), mtime: statSync(path).mtimeMs };
    }
  };
  walk(dir);
  return files;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read and edit arbitrary JSON
const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));
const promoFile = (dir: string, id: string) => join(dir, `promo.${id}.json`);

describe('platen templates pull', () => {
  it('writes one canonical file per template and the assets they use; a second pull changes no byte', async () => {
    const ws = await seededWorkspace();
    const dir = folder();
    const first = await platen(ws.key, 'pull', dir);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    const files = Object.keys(snapshot(dir)).sort();
    expect(files).toEqual([
      ...[
        `assets/${ws.fontId}.json`,
        `assets/${ws.fontId}.ttf`,
        `assets/${ws.imageId}.json`,
        `assets/${ws.imageId}.png`,
      ].sort(),
      `promo.${ws.promoId}.json`,
      expect.stringMatching(/^second-card\.tpl_\w+\.json$/),
    ]);

    const text = readFileSync(promoFile(dir, ws.promoId), 'utf8');
    const held = JSON.parse(text);
    const onServer = await getTemplate(ws.key, ws.promoId);
    expect(held).toEqual({
      document: onServer.document,
      id: ws.promoId,
      name: 'Promo',
      revision: 1,
      shared: false,
    });
    expect(Object.keys(held)).toEqual(['document', 'id', 'name', 'revision', 'shared']);
    expect(Object.keys(held.document.pages[0].elements[1])).toEqual(
      Object.keys(held.document.pages[0].elements[1]).sort(),
    );
    expect(text.startsWith('{\n  "document": {\n    "activePageId": "p1",\n')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(readJson(join(dir, 'assets', `${ws.imageId}.json`))).toEqual({ contentType: 'image/png' });
    expect(readJson(join(dir, 'assets', `${ws.fontId}.json`))).toEqual({
      contentType: 'font/ttf',
      family: 'Brand Sans',
    });
    expect(readFileSync(join(dir, 'assets', `${ws.imageId}.png`))).toEqual(PNG_1X1);

    const before = snapshot(dir);
    const second = await platen(ws.key, 'pull', dir);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/nothing changed/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('follows a rename on the server, leaving one file for the template', async () => {
    const ws = await seededWorkspace();
    const dir = folder();
    await platen(ws.key, 'pull', dir);
    await http(server.base, 'PATCH', `/v1/templates/${ws.promoId}`, {
      headers: bearer(ws.key),
      body: { name: 'Winter Promo' },
    });
    const run = await platen(ws.key, 'pull', dir);
    expect(run.status, run.stderr).toBe(0);
    const names = readdirSync(dir).filter((name) => name.includes(ws.promoId));
    expect(names).toEqual([`winter-promo.${ws.promoId}.json`]);
    expect(run.stdout).toContain(`promo.${ws.promoId}.json → winter-promo.${ws.promoId}.json (renamed)`);
  });
});

describe('platen templates diff and push', () => {
  it('shows exactly an edited property, pushes it, and then has nothing to push', async () => {
    const ws = await seededWorkspace();
    const dir = folder();
    await platen(ws.key, 'pull', dir);
    const path = promoFile(dir, ws.promoId);
    const edited = readJson(path);
    edited.document.pages[0].elements[1].fontSize = 80;
    // As an editor would write it: not the canonical key order.
    writeFileSync(path, JSON.stringify(edited, null, 4));

    const diff = await platen(ws.key, 'diff', dir);
    expect(diff.status, diff.stderr).toBe(0);
    expect(changeLines(diff)).toEqual([`~ Promo (${ws.promoId}): pages[p1].elements[t1].fontSize: 72 → 80`]);

    const push = await platen(ws.key, 'push', dir);
    expect(push.status, push.stderr).toBe(0);
    expect(push.stdout).toContain(`~ saved Promo (${ws.promoId}): 1 change, revision 1 → 2`);
    const saved = await getTemplate(ws.key, ws.promoId);
    expect(saved.revision).toBe(2);
    expect(saved.document.pages[0].elements[1].fontSize).toBe(80);
    expect(readJson(path)).toMatchObject({ revision: 2, document: saved.document });

    const after = await platen(ws.key, 'diff', dir);
    expect(changeLines(after)).toEqual([]);
    expect(after.stdout).toMatch(/^Nothing to push/m);
  });

  it('creates a template from a new file and writes its id and revision into it', async () => {
    const ws = await seededWorkspace();
    const dir = folder();
    await platen(ws.key, 'pull', dir);
    writeFileSync(
      join(dir, 'story.json'),
      JSON.stringify({ name: 'Story', document: simpleDocument('Once') }),
    );

    expect(changeLines(await platen(ws.key, 'diff', dir))).toEqual(['+ new template "Story" (story.json)']);
    const push = await platen(ws.key, 'push', dir);
    expect(push.status, push.stderr).toBe(0);
    const file = readJson(join(dir, 'story.json'));
    expect(file).toMatchObject({
      id: expect.stringMatching(/^tpl_/),
      name: 'Story',
      revision: 1,
      shared: false,
    });
    expect(push.stdout).toContain(`+ created Story (${file.id}) from story.json`);
    expect((await getTemplate(ws.key, file.id)).document).toEqual(file.document);
    expect((await platen(ws.key, 'diff', dir)).stdout).toMatch(/^Nothing to push/m);
  });

  it('refuses a template changed on the server since the pull, until --force', async () => {
    const ws = await seededWorkspace();
    const dir = folder();
    await platen(ws.key, 'pull', dir);
    const serverSide = await getTemplate(ws.key, ws.promoId);
    serverSide.document.pages[0].elements[1].text = 'Changed in the studio';
    const put = await http(server.base, 'PUT', `/v1/templates/${ws.promoId}`, {
      headers: { ...bearer(ws.key), 'if-match': '"1"' },
      body: { document: serverSide.document },
    });
    expect(put.status).toBe(200);
    const path = promoFile(dir, ws.promoId);
    const edited = readJson(path);
    edited.document.pages[0].elements[1].fontSize = 90;
    writeFileSync(path, JSON.stringify(edited));

    const diff = await platen(ws.key, 'diff', dir);
    expect(changeLines(diff)).toContain(
      `! Promo (${ws.promoId}): conflict: the server is at revision 2, promo.${ws.promoId}.json was read at 1; ` +
        'pull and edit again, or push --force to overwrite',
    );
    const refused = await platen(ws.key, 'push', dir);
    expectOneLineError(refused, 1, /^! Promo \(tpl_\w+\): conflict: the server is at revision 2/);
    const untouched = await getTemplate(ws.key, ws.promoId);
    expect(untouched.revision).toBe(2);
    expect(untouched.document).toEqual(put.json.document);
    expect(readJson(path)).toMatchObject({ revision: 1 });

    const forced = await platen(ws.key, 'push', dir, '--force');
    expect(forced.status, forced.stderr).toBe(0);
    const overwritten = await getTemplate(ws.key, ws.promoId);
    expect(overwritten.revision).toBe(3);
    expect(overwritten.document.pages[0].elements[1]).toMatchObject({ fontSize: 90, text: 'Big sale' });
    expect(readJson(path)).toMatchObject({ revision: 3 });
  });

  it('uploads the assets a fresh workspace lacks and points the templates at them', async () => {
    const source = await seededWorkspace();
    const dir = folder();
    await platen(source.key, 'pull', dir);
    const copy = folder();
    cpSync(dir, copy, { recursive: true });
    const fresh = await workspaceWithKey(server.base);

    const push = await platen(fresh.key, 'push', copy);
    expect(push.status, push.stderr).toBe(0);
    expect(push.stdout).toMatch(
      new RegExp(`^\\+ uploaded assets/${source.imageId}\\.png as asset:\\w+$`, 'm'),
    );
    expect(push.stdout).toMatch(/^Pushed: 2 created, 0 saved, 0 renamed or shared, 2 assets uploaded\.$/m);
    const assets = (await http(server.base, 'GET', '/v1/assets', { headers: bearer(fresh.key) })).json.items;
    const image = assets.find((asset: { kind: string }) => asset.kind === 'image');
    expect(assets).toHaveLength(2);
    expect(assets.find((asset: { kind: string }) => asset.kind === 'font')).toMatchObject({
      fontFamily: 'Brand Sans',
    });

    const file = readJson(promoFile(copy, source.promoId));
    expect(file.id).not.toBe(source.promoId);
    const created = await getTemplate(fresh.key, file.id);
    expect(created.document.pages[0].background).toMatchObject({ src: `asset:${image.id}` });
    expect(created.document.pages[0].elements[2]).toMatchObject({ src: `asset:${image.id}` });
    expect(file.document).toEqual(created.document);
    expect(readdirSync(join(copy, 'assets')).sort()).toContain(`${image.id}.png`);
    expect((await platen(fresh.key, 'diff', copy)).stdout).toMatch(/^Nothing to push/m);
  });
});

describe('platen templates: bad input', () => {
  it('answers a bad URL, a bad key, a refused port and no key with one line and no stack', async () => {
    const ws = await workspaceWithKey(server.base);
    const dir = folder();
    expectOneLineError(
      await platen(ws.key, 'pull', dir, '--url', 'not a url'),
      2,
      /--url: baseUrl must be an absolute URL/,
    );
    expectOneLineError(await platen('plt_wrong', 'pull', dir), 1, /^platen templates: INVALID_API_KEY: /);
    const closed = `http://127.0.0.1:${await freePort()}`;
    expectOneLineError(
      await platen(ws.key, 'diff', dir, '--url', closed),
      1,
      /could not reach http:\/\/127\.0\.0\.1:\d+: /,
    );
    expectOneLineError(await platen('', 'diff', dir), 2, /no API key/);
    expectOneLineError(await platen(ws.key, 'push', join(dir, 'missing')), 2, /is not a folder/);
  });

  it('names a malformed file and a document the server refuses, on one line each', async () => {
    const ws = await workspaceWithKey(server.base);
    const dir = folder();
    writeFileSync(join(dir, 'broken.json'), '{ "name": "Broken", ');
    expectOneLineError(
      await platen(ws.key, 'push', dir),
      2,
      /^platen templates: broken\.json: not valid JSON/,
    );
    rmSync(join(dir, 'broken.json'));
    writeFileSync(join(dir, 'typo.json'), JSON.stringify({ nme: 'Typo', document: simpleDocument() }));
    expectOneLineError(await platen(ws.key, 'diff', dir), 2, /^platen templates: typo\.json: /);
    rmSync(join(dir, 'typo.json'));

    const document = simpleDocument();
    Object.assign(document.pages[0]?.elements[1] ?? {}, { fontSize: -5 });
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ name: 'Bad', document }));
    expect(changeLines(await platen(ws.key, 'diff', dir))).toEqual([
      '+ new template "Bad" (bad.json)',
      expect.stringMatching(
        /^! "Bad" \(bad\.json\): the document is not valid: pages\[0\]\.elements\[1\]\.fontSize: /,
      ),
    ]);
    expectOneLineError(
      await platen(ws.key, 'push', dir),
      1,
      /^✗ "Bad" \(bad\.json\): VALIDATION_FAILED: The design document is not valid\. document\.pages\[0\]\.elements\[1\]\.fontSize: /,
    );
  });
});
