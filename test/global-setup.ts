/**
 * Once per test run, before any worker: what the tests start must be built from the sources as they
 * are now. The service processes (`npm start`, `bin/platen.js`) run the compiled `dist/`, the SDK's
 * tests and the CLI load `@platen/client`'s `dist/`, and the browser suites load the studio bundle.
 * Each one older than any of its sources is rebuilt here, once, rather than by parallel test files
 * racing to replace it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What each build writes (one file to date it by) and the sources it is made of. */
const BUILDS = [
  { flag: '--client', output: 'clients/typescript/dist/index.js', sources: ['clients/typescript/src'] },
  { flag: '--server', output: 'dist/main.js', sources: ['src'] },
  {
    flag: '--studio',
    output: 'studio/dist/embed.js',
    sources: [
      'studio/src',
      'studio/index.html',
      'studio/console.html',
      'src/design',
      'src/engine/layout',
      'src/engine/draw',
    ],
  },
];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Rebuilds what is older than its sources; benchmarks call it too before they start services. */
export function ensureBuilt(): void {
  for (const build of BUILDS) {
    const output = join(root, build.output);
    const stale =
      !existsSync(output) ||
      build.sources.some(
        (source) =>
          existsSync(join(root, source)) && newestMtime(join(root, source)) > statSync(output).mtimeMs,
      );
    if (!stale) continue;
    console.info(`Building ${build.output} (its sources changed since the last build)…`);
    const result = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), build.flag], {
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`npm run build ${build.flag} failed`);
  }
}

export default ensureBuilt;
