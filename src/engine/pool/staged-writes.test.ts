/**
 * A render process's staged files: a file begun early with its first bytes ends whole and exact;
 * bytes that do not start as told are written whole (also when shorter); a missing folder is
 * made; a failed render leaves nothing behind. Watched with strace (skipped, saying so, where it
 * is not installed): the last sync of a staged file comes after its last write.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EARLY_MIN_BYTES, StagedWrites } from './staged-writes.ts';

/** Waits (up to 10 s) until `check` holds: files are opened and written in the background. */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await check()) && waited < 10_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await check()).toBe(true);
}

async function filesIn(folder: string, count: number): Promise<string[]> {
  await waitFor(async () => (await readdir(folder)).length === count);
  return readdir(folder);
}

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
    // The early part is written before finish is called: the file exists and holds it.
    const early = await filesIn(dir, 1);
    await waitFor(async () => (await stat(join(dir, early[0] as string))).size === EARLY_MIN_BYTES + 100);
    const path = await staged.finish(0, bytes);
    expect(path).toBe(join(dir, early[0] as string));
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
    await staged.finish(0, randomBytes(100));
    staged.begin(1, randomBytes(EARLY_MIN_BYTES));
    staged.begin(2, randomBytes(EARLY_MIN_BYTES));
    // One finished and two being written (opened in the background).
    await filesIn(dir, 3);
    await staged.discard();
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes a file still being opened when the render fails at once', async () => {
    const staged = new StagedWrites(dir);
    staged.begin(0, randomBytes(EARLY_MIN_BYTES));
    await staged.discard();
    expect(await readdir(dir)).toEqual([]);
  });

  it('fails a finish whose folder is gone for good, leaving nothing, and discards quietly after', async () => {
    const file = join(dir, 'not-a-folder');
    await writeFile(file, 'x');
    const staged = new StagedWrites(join(file, 'staging'));
    staged.begin(0, randomBytes(EARLY_MIN_BYTES));
    await expect(staged.finish(0, randomBytes(10))).rejects.toThrow(/ENOTDIR/);
    await staged.discard();
    expect(await readdir(dir)).toEqual(['not-a-folder']);
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
