/**
 * A render process's staged files: a file begun early with its first bytes ends whole and exact;
 * bytes that do not start as told are written whole (also when shorter); a missing folder is
 * made; a failed render leaves nothing behind. Watched with strace (skipped, saying so, where it
 * is not installed): the last sync of a staged file comes after its last write.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EARLY_MIN_BYTES, StagedWrites } from './staged-writes.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platen-staged-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('StagedWrites', () => {
  it('finishes a file begun with its first bytes as exactly the whole bytes', async () => {
    const bytes = randomBytes(EARLY_MIN_BYTES * 2);
    const staged = new StagedWrites(dir);
    staged.begin(0, bytes.subarray(0, EARLY_MIN_BYTES + 100));
    const path = await staged.finish(0, bytes);
    expect((await readFile(path)).equals(bytes)).toBe(true);
    expect(await readdir(dir)).toEqual([path.slice(dir.length + 1)]);
  });

  it('writes bytes whole that do not start as told, longer or shorter', async () => {
    for (const length of [EARLY_MIN_BYTES * 2, 100]) {
      const staged = new StagedWrites(dir);
      staged.begin(0, randomBytes(EARLY_MIN_BYTES));
      const bytes = randomBytes(length);
      const path = await staged.finish(0, bytes);
      expect((await readFile(path)).equals(bytes)).toBe(true);
    }
  });

  it('writes files never begun, and files of several pages apart', async () => {
    const [first, second] = [randomBytes(2000), randomBytes(3000)];
    const staged = new StagedWrites(dir);
    staged.begin(1, second.subarray(0, 10)); // too few to write early: written with the rest
    const paths = [await staged.finish(0, first), await staged.finish(1, second)];
    expect(new Set(paths).size).toBe(2);
    expect((await readFile(paths[0] as string)).equals(first)).toBe(true);
    expect((await readFile(paths[1] as string)).equals(second)).toBe(true);
  });

  it('makes a folder that is missing', async () => {
    const inner = join(dir, 'removed', 'staging');
    const staged = new StagedWrites(inner);
    const bytes = randomBytes(EARLY_MIN_BYTES + 10);
    staged.begin(0, bytes.subarray(0, EARLY_MIN_BYTES));
    const path = await staged.finish(0, bytes);
    expect((await readFile(path)).equals(bytes)).toBe(true);
  });

  it('removes what a failed render began', async () => {
    const staged = new StagedWrites(dir);
    staged.begin(0, randomBytes(EARLY_MIN_BYTES));
    staged.begin(1, randomBytes(EARLY_MIN_BYTES));
    // Both are being written (opened in the background): wait until both files exist.
    for (let waited = 0; (await readdir(dir)).length < 2 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await readdir(dir)).length).toBe(2);
    await staged.discard();
    expect(await readdir(dir)).toEqual([]);
  });
});

const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace)
  console.warn('skipped: the staged file sync order test needs strace (apt-get install strace)');

const script = `
import { StagedWrites } from ${JSON.stringify(join(import.meta.dirname, 'staged-writes.ts'))};
const staged = new StagedWrites(process.argv[1]);
const bytes = new Uint8Array(2 * 1024 * 1024).fill(7);
staged.begin(0, bytes.subarray(0, 1024 * 1024));
await staged.finish(0, bytes);
`;

describe.skipIf(!hasStrace)('StagedWrites durability (strace)', () => {
  it('syncs a staged file after its last write, and its first bytes before that', () => {
    const out = join(dir, 'trace.txt');
    const files = join(dir, 'files');
    execFileSync(
      'strace',
      ['-f', '-y', '-qq', '-e', 'trace=pwrite64,fdatasync', '-o', out, process.execPath].concat([
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
        files,
      ]),
      { stdio: 'inherit' },
    );
    const [name] = readdirSync(files);
    // Threads interleave: a call strace shows "unfinished" is matched by the line that starts it.
    const calls = readFileSync(out, 'utf8')
      .split('\n')
      .filter((line) => line.includes(`${name}>`))
      .map((line) => (line.includes('fdatasync(') ? 'sync' : 'write'));
    expect(calls.at(-1)).toBe('sync');
    expect(calls.indexOf('sync')).toBeLessThan(calls.lastIndexOf('write'));
  }, 60_000);
});
