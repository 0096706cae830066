#!/usr/bin/env node
/**
 * `npm run build`, and `prepare` (so `npm ci` leaves a runnable service): compiles what production
 * runs, so no TypeScript compiler is loaded at run time (docs/decisions.md, "Compiled runtime").
 *
 * - the server: every `src/**` module (tests aside) to `dist/`, file for file, with linked source
 *   maps (`--enable-source-maps` turns stack traces back into `.ts` lines). `dist/` sits beside
 *   `src/` at the same depth, so a module's paths relative to the repository (`../../studio/`,
 *   `node_modules/`) hold in both;
 * - the TypeScript client (`clients/typescript`, `@platen/client`): JavaScript and declarations;
 * - the studio and the console (Vite): `studio/dist/`.
 *
 *   node scripts/build.mjs [--server] [--client] [--studio]   (none: all three)
 *
 * Without the build tools (an install that omitted devDependencies) it warns and exits 0, as the
 * studio build always did; the Docker image builds in a stage that has them.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const asked = process.argv.slice(2);
const all = asked.length === 0;

async function tool(name) {
  try {
    return await import(name);
  } catch {
    process.stderr.write(
      `platen: ${name} is not installed (devDependencies omitted?); skipping this build\n`,
    );
    return null;
  }
}

/** Browser code under src/: bundled into a page, never run by the server, so not compiled file for file. */
const BROWSER_ONLY = [join(root, 'src/mcp/app/view')];

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return BROWSER_ONLY.includes(path) ? [] : sources(path);
    return /\.(ts|tsx)$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

/** Each module compiled alone: relative `.ts` imports become `.js`, packages stay imports. */
const keepImports = {
  name: 'keep-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.path.startsWith('.')) return { path: args.path.replace(/\.tsx?$/, '.js'), external: true };
      return { path: args.path, external: true };
    });
  },
};

async function buildServer() {
  const esbuild = await tool('esbuild');
  if (!esbuild) return;
  const started = Date.now();
  const out = join(root, 'dist');
  const partial = join(root, `dist.tmp-${process.pid}`);
  const src = join(root, 'src');
  await esbuild.build({
    entryPoints: sources(src),
    outdir: partial,
    outbase: src,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    plugins: [keepImports],
    logLevel: 'warning',
  });
  // The MCP App's view (src/mcp/app), bundled for the browser now: production serves it without esbuild.
  const appView = await import(pathToFileURL(join(partial, 'mcp/app/view-bundle.js')).href);
  writeFileSync(join(partial, 'mcp/app', appView.BUNDLE_FILE_NAME), await appView.bundleTemplateAppView());
  // JSON modules are imported as they are.
  for (const file of readdirSync(src, { recursive: true })) {
    if (String(file).endsWith('.json')) {
      mkdirSync(join(partial, String(file), '..'), { recursive: true });
      cpSync(join(src, String(file)), join(partial, String(file)));
    }
  }
  // Swapped in whole: a service started meanwhile never sees half a tree.
  // Another build may swap its own tree in meanwhile (parallel test runs): the last one wins.
  const old = `${out}.old-${process.pid}`;
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(out, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(partial, out);
      break;
    } catch (error) {
      if (attempt >= 5 || !['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
    }
  }
  rmSync(old, { recursive: true, force: true });
  process.stdout.write(`platen: server built into ${relative(root, out)}/ in ${Date.now() - started} ms\n`);
}

async function buildClient() {
  const dir = join(root, 'clients/typescript');
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  if (!existsSync(tsc)) {
    process.stderr.write('platen: typescript is not installed; skipping the client build\n');
    return;
  }
  const started = Date.now();
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('the client build failed');
  process.stdout.write(`platen: client built into clients/typescript/dist/ in ${Date.now() - started} ms\n`);
}

async function buildStudio() {
  if (!(await tool('vite'))) return;
  // The server build (just before) compiled the studio's build script too.
  const result = spawnSync(process.execPath, [join(root, 'dist/studio/build-cli.js')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (result.status !== 0) throw new Error('the studio build failed');
}

if (all || asked.includes('--client')) await buildClient();
if (all || asked.includes('--server')) await buildServer();
if (all || asked.includes('--studio')) {
  if (!existsSync(join(root, 'dist/studio/build-cli.js'))) await buildServer();
  await buildStudio();
}
