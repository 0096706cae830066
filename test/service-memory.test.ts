/**
 * The service process does not load the drawing libraries: only render processes draw, and Skia
 * with its fonts is about 30 MB of the service's resident memory (149 against 180 MB idle,
 * docs/performance.md). An import of the engine's in-process renderer anywhere in the service's
 * module graph would bring it back; this loads that graph in a child process and looks.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const script = `
import { createRequire } from 'node:module';
await import('./src/services.ts');
await import('./src/app.ts');
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify(loaded.filter((path) => /@napi-rs[\\\\/]canvas/.test(path))));
`;

describe('the service process', () => {
  it('loads its modules without the drawing libraries (@napi-rs/canvas)', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, PLATEN_LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(out.trim().split('\n').at(-1) ?? 'null')).toEqual([]);
  }, 60_000);
});
