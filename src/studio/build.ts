/**
 * Builds the studio bundle (the Preact shell + editor, and the `/embed.js` loader) into
 * `studio/dist` with Vite's JS API. Used by `npm run build:studio` (the `prepare` step) and by the
 * server when it starts without a bundle. Each build writes a private temporary folder and renames
 * it into place, so concurrent builds (several test servers, two processes) never serve half a tree.
 */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STUDIO_ROOT = fileURLToPath(new URL('../../studio/', import.meta.url));
export const DEFAULT_DIST_DIR = join(STUDIO_ROOT, 'dist');

export async function buildStudio(outDir: string = DEFAULT_DIST_DIR): Promise<void> {
  // Vite is a devDependency: imported only when a build is asked for, so a production install
  // without it can still serve a bundle built elsewhere.
  const vite = await import('vite');
  const tmp = `${outDir}.tmp-${process.pid}-${Date.now()}`;
  try {
    await vite.build({
      configFile: join(STUDIO_ROOT, 'vite.config.ts'),
      root: STUDIO_ROOT,
      logLevel: 'warn',
      build: { outDir: tmp, emptyOutDir: true },
    });
    // The loader is its own tiny IIFE: customers' pages load it with a plain <script>.
    await vite.build({
      configFile: false,
      root: STUDIO_ROOT,
      logLevel: 'warn',
      publicDir: false,
      build: {
        outDir: tmp,
        emptyOutDir: false,
        target: 'es2017',
        minify: true,
        lib: {
          entry: join(STUDIO_ROOT, 'src/loader/embed.ts'),
          formats: ['iife'],
          name: 'PlatenLoader',
          fileName: () => 'embed.js',
        },
      },
    });
    await rm(outDir, { recursive: true, force: true });
    await rename(tmp, outDir);
  } finally {
    // Left behind only when another process renamed its own build into place first.
    await rm(tmp, { recursive: true, force: true });
  }
}
