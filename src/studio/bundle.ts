/**
 * The studio bundle on disk as the server sees it: ready, being built (started when the server
 * found no bundle), or missing with the reason. Files are read on each request (the OS caches
 * them), so a rebuilt bundle is served without a restart.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { buildStudio } from './build.ts';

export type BundleState = { kind: 'ready' } | { kind: 'building' } | { kind: 'missing'; reason: string };

export interface StudioBundle {
  dir: string;
  state(): BundleState;
}

const isBuilt = (dir: string) =>
  ['index.html', 'console.html', 'embed.js'].every((file) => existsSync(join(dir, file)));

let building: Promise<void> | null = null;

export function studioBundle(dir: string, log: FastifyBaseLogger, buildIfMissing: boolean): StudioBundle {
  let failure: string | null = null;
  if (!isBuilt(dir)) {
    if (!buildIfMissing) failure = 'the studio bundle is not built';
    else {
      log.warn({ dir }, 'studio bundle missing: building it now (npm run build:studio does this ahead)');
      const started = Date.now();
      // One build per process; the server answers 503 "building" meanwhile instead of delaying start.
      building ??= buildStudio(dir);
      building.then(
        () => log.info({ ms: Date.now() - started }, 'studio bundle built'),
        (error: unknown) => {
          failure = error instanceof Error ? error.message : String(error);
          log.error({ err: error }, 'studio build failed; run npm run build:studio');
        },
      );
    }
  }
  return {
    dir,
    state() {
      if (isBuilt(dir)) return { kind: 'ready' };
      if (failure) return { kind: 'missing', reason: failure };
      return building ? { kind: 'building' } : { kind: 'missing', reason: 'the studio bundle is not built' };
    },
  };
}
