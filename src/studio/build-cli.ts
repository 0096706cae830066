/**
 * `npm run build:studio` (and `prepare`): builds studio/dist. Without Vite (a production install
 * that omitted devDependencies) it warns and exits 0, so `npm ci --omit=dev` still succeeds; the
 * server then answers the studio routes with a 503 page saying how to build.
 */
import { buildStudio, DEFAULT_DIST_DIR } from './build.ts';

try {
  await import('vite');
} catch {
  process.stderr.write('platen: vite is not installed; skipping the studio build (npm run build:studio)\n');
  process.exit(0);
}
const started = Date.now();
await buildStudio(DEFAULT_DIST_DIR);
process.stdout.write(`platen: studio built into ${DEFAULT_DIST_DIR} in ${Date.now() - started} ms\n`);
