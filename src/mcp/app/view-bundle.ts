/**
 * The view's script, one IIFE inlined into the app's HTML (an MCP App is a single document: the
 * host's sandbox has no origin to load files from). `npm run build` bundles it into `dist/` beside
 * this module, so production reads a file and needs no bundler; from the sources (tests, `tsx`)
 * it is bundled with esbuild on first use. Either way it is made once per process.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` writes the bundle: next to this module in `dist/`. */
export const BUNDLE_FILE_NAME = 'template-app-view.js';
const prebuilt = new URL(`./${BUNDLE_FILE_NAME}`, import.meta.url);
// `src/` and `dist/` sit at the same depth, so this names the view's source from either.
const VIEW_ENTRY = fileURLToPath(new URL('../../../src/mcp/app/view/main.ts', import.meta.url));

/**
 * zod (the MCP SDK's schemas, which the view's `App` validates messages with) re-exports all its
 * error-message locales as a namespace, which defeats tree shaking: about 260 KB of a 530 KB page.
 * The view never shows zod's messages, so only English (zod's default) is kept.
 */
const englishZodLocalesOnly = {
  name: 'english-zod-locales-only',
  setup(build: import('esbuild').PluginBuild) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'zod-en' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/** Bundles the view with esbuild (a devDependency: imported only when a bundle is made). */
export async function bundleTemplateAppView(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [VIEW_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [englishZodLocalesOnly],
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no bundle for the MCP App view');
  return output.text;
}

async function loadScript(): Promise<string> {
  try {
    return await readFile(prebuilt, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return bundleTemplateAppView();
  }
}

let script: Promise<string> | null = null;

export function templateAppScript(): Promise<string> {
  script ??= loadScript().catch((error: unknown) => {
    script = null; // a failed attempt is not cached: the next read tries again
    throw error;
  });
  return script;
}
