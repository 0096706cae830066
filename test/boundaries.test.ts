/**
 * The house's folder boundaries, enforced: every import between folders of src/ must be one the
 * table below allows, the table itself has no cycle, and the kernel (http/) imports no feature.
 * Tests may import across (they drive the real thing); production code may not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(new URL('../src', import.meta.url).pathname);

/** What each folder may import besides itself. Root files (main, app, services, bootstrap) compose everything. */
const allowed: Record<string, readonly string[]> = {
  core: [],
  design: ['core'],
  outbound: ['core'],
  engine: ['core', 'design', 'outbound'],
  store: ['core', 'design'],
  files: ['core', 'http'],
  ratelimit: ['core'],
  auth: ['core', 'store'],
  http: ['core', 'auth'],
  audit: ['core', 'store', 'auth', 'http'],
  credits: ['core', 'store', 'auth', 'audit'],
  workspaces: ['core', 'store', 'credits', 'auth', 'audit'],
  templates: ['core', 'design', 'store', 'auth', 'http'],
  assets: ['core', 'design', 'engine', 'outbound', 'store', 'files', 'auth', 'http'],
  renders: [
    'core',
    'design',
    'engine',
    'store',
    'files',
    'auth',
    'credits',
    'templates',
    'http',
    'ratelimit',
  ],
  admin: ['core', 'auth', 'credits', 'workspaces', 'http'],
  embeds: [
    'core',
    'store',
    'auth',
    'audit',
    'http',
    'templates',
    'assets',
    'renders',
    'ratelimit',
    'versions',
    'preflight',
  ],
  webhooks: ['core', 'store', 'outbound', 'auth', 'audit', 'http', 'templates'],
  versions: [
    'core',
    'design',
    'engine',
    'store',
    'auth',
    'audit',
    'http',
    'templates',
    'renders',
    'ratelimit',
  ],
  thumbnails: ['core', 'design', 'engine', 'store', 'files', 'templates', 'renders'],
  preflight: ['core', 'design', 'engine', 'auth', 'http', 'templates', 'renders', 'ratelimit'],
  people: ['core', 'store', 'http', 'auth', 'audit'],
  console: ['core', 'http', 'people', 'store', 'auth', 'admin', 'embeds', 'webhooks', 'workspaces'],
  oauth: ['core', 'store', 'auth', 'http', 'people'],
  mcp: [
    'core',
    // The tools describe the design document to agents with its own JSON Schema.
    'design',
    'auth',
    'http',
    'templates',
    'assets',
    'renders',
    'batches',
    'workspaces',
    'files',
    'ratelimit',
    'versions',
    'render-urls',
    'preflight',
  ],
  cli: ['core', 'design', 'engine', 'store', 'backup', 'auth', '(root)'],
  backup: ['core', 'store', 'files'],
  batches: [
    'core',
    'auth',
    'design',
    'renders',
    'preflight',
    'store',
    'credits',
    'templates',
    'http',
    'files',
    'ratelimit',
  ],
  'render-urls': [
    'core',
    'auth',
    'audit',
    'design',
    'files',
    'renders',
    'templates',
    'store',
    'http',
    'ratelimit',
  ],
  studio: ['core', 'engine', 'http'],
  observability: ['core', 'http'],
};

const FEATURES = [
  'templates',
  'assets',
  'renders',
  'admin',
  'workspaces',
  'credits',
  'files',
  'engine',
  'store',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const folderOf = (file: string): string => {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? '(root)' : (parts[0] ?? '(root)');
};

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface Edge {
  from: string;
  to: string;
  file: string;
  specifier: string;
}

function edges(): Edge[] {
  const found: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) found.push({ from, to, file: relative(SRC, file), specifier });
    }
  }
  return found;
}

describe('folder boundaries', () => {
  const all = edges();

  it('finds the imports it checks (the scan is not empty)', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(all).toContainEqual(expect.objectContaining({ from: 'renders', to: 'templates' }));
  });

  it('every import between folders is one the table allows', () => {
    const forbidden = all
      .filter((e) => e.from !== '(root)' && !(allowed[e.from] ?? []).includes(e.to))
      .map((e) => `${e.file} imports ${e.specifier} (${e.from} → ${e.to})`);
    expect(forbidden).toEqual([]);
  });

  it('every folder of src/ is in the table', () => {
    const folders = new Set(sourceFiles(SRC).map(folderOf));
    folders.delete('(root)');
    expect([...folders].filter((f) => !(f in allowed))).toEqual([]);
  });

  it('the table has no cycle, so no two folders import each other', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (folder: string, path: string[]) => {
      if (done.has(folder)) return;
      if (visiting.has(folder)) {
        cycles.push([...path, folder].join(' → '));
        return;
      }
      visiting.add(folder);
      for (const next of allowed[folder] ?? []) visit(next, [...path, folder]);
      visiting.delete(folder);
      done.add(folder);
    };
    for (const folder of Object.keys(allowed)) visit(folder, []);
    expect(cycles).toEqual([]);
  });

  it('the kernel imports no feature, and the store no auth or feature code', () => {
    expect(allowed.http?.filter((f) => FEATURES.includes(f))).toEqual([]);
    expect(allowed.store?.filter((f) => f === 'auth' || FEATURES.includes(f))).toEqual([]);
    expect(allowed.core).toEqual([]);
    for (const pure of ['design', 'engine']) expect(allowed[pure]).not.toContain('store');
    for (const pure of ['design', 'engine']) expect(allowed[pure]).not.toContain('http');
    for (const pure of ['design', 'engine']) expect(allowed[pure]).not.toContain('files');
  });
});
