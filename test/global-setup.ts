/**
 * Once per test run, before any worker: the studio bundle the browser suites load must be built from
 * the sources as they are now. A bundle older than any studio, design or engine source is rebuilt
 * here, once, rather than by parallel test files racing to replace it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStudio, DEFAULT_DIST_DIR } from '../src/studio/build.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = ['studio/src', 'studio/index.html', 'src/design', 'src/engine/layout', 'src/engine/draw'];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

export default async function setup(): Promise<void> {
  const built = join(DEFAULT_DIST_DIR, 'index.html');
  const embed = join(DEFAULT_DIST_DIR, 'embed.js');
  const stale =
    !existsSync(built) ||
    !existsSync(embed) ||
    SOURCES.some(
      (source) => existsSync(join(root, source)) && newestMtime(join(root, source)) > statSync(built).mtimeMs,
    );
  if (!stale) return;
  console.info('Building the studio bundle (its sources changed since the last build)…');
  await buildStudio(DEFAULT_DIST_DIR);
}
