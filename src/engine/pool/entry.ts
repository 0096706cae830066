/**
 * What a render process runs. In production (this module compiled into `dist/`) that is the
 * compiled render-process.js beside it. Run from the TypeScript sources (tests, benchmarks),
 * render-process.ts is bundled once, per content, into one JavaScript file (esbuild), so the process
 * loads no TypeScript compiler and no module-by-module transform at run time (a process costs tens
 * of MB less, and starts faster). The file lives in node_modules/.cache/platen, where Node resolves
 * the packages it imports. Where esbuild or that folder is unavailable, the process runs the
 * TypeScript through tsx.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface ProcessEntry {
  path: string;
  execArgv: string[];
}

const COMPILED = import.meta.url.endsWith('.js');
const SOURCE = fileURLToPath(
  new URL(COMPILED ? './render-process.js' : './render-process.ts', import.meta.url),
);
const CACHE_DIR = fileURLToPath(new URL('../../../node_modules/.cache/platen/', import.meta.url));

interface Esbuild {
  buildSync(options: Record<string, unknown>): { outputFiles?: { contents: Uint8Array }[] };
}

let entry: ProcessEntry | null = null;

function compiled(): ProcessEntry {
  const esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  const result = esbuild.buildSync({
    entryPoints: [SOURCE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles?.[0]?.contents;
  if (!code) throw new Error('esbuild wrote nothing');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const path = `${CACHE_DIR}render-process-${hash}.mjs`;
  if (!existsSync(path)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed, so a process started by another pool never reads half a file.
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, path);
  }
  return { path, execArgv: [] };
}

export function renderProcessEntry(): ProcessEntry {
  if (entry) return entry;
  if (COMPILED) {
    entry = { path: SOURCE, execArgv: ['--enable-source-maps'] };
    return entry;
  }
  try {
    entry = compiled();
  } catch {
    entry = { path: SOURCE, execArgv: ['--import', 'tsx'] };
  }
  return entry;
}
