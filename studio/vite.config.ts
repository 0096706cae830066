/**
 * Vite build of the studio shell (Preact, no plugin needed: esbuild's automatic JSX runtime).
 * Served under /studio/ by src/studio; the loader (/embed.js) is built separately by
 * src/studio/build.ts as an IIFE. Everything ships from the service's origin: no CDN.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/studio/',
  publicDir: false,
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // The engine (layout, text shaping tables, QR) is most of the bundle; it is one cacheable chunk.
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      // Two pages, one bundle: the studio (index.html) and the console (console.html), which frames it.
      input: {
        studio: fileURLToPath(new URL('index.html', import.meta.url)),
        console: fileURLToPath(new URL('console.html', import.meta.url)),
      },
      onwarn(warning, warn) {
        // zod's explanatory comments next to @__PURE__ annotations: harmless, and noisy in `npm ci`.
        if (warning.code === 'INVALID_ANNOTATION') return;
        warn(warning);
      },
    },
  },
  // The studio imports the engine from ../src (src/engine/browser.ts).
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
