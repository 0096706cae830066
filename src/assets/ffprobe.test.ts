/**
 * The probe runner's bounds, with stand-in programs that misbehave as a hostile file could make
 * ffprobe do: never finish (killed at the deadline), print without end (killed at the output
 * bound). The bytes' temporary file is gone afterwards whatever happened.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobeProgram, probeBytes } from './ffprobe.ts';

let dir: string;
const script = async (name: string, body: string) => {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
};
/**
 * A stand-in's line that notes the file it was handed (the last argument, `file:<path>`) in
 * `<dir>/<note>`, so a test checks that file's own folder afterwards: other test files probe at the
 * same time in the same temporary folder, so listing it would race with them.
 */
const noteInput = (note: string) =>
  `for last; do :; done; input="$(printf %s "$last" | cut -c6-)"; printf %s "$input" > "${'$'}{0%/*}/${note}"`;
/** Whether the folder that held the file a stand-in noted is still there. */
const inputFolderLeft = async (note: string) => existsSync(dirname(await readFile(join(dir, note), 'utf8')));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platen-ffprobe-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('probeBytes', () => {
  it('hands the program the bytes as a file: and removes the file afterwards', async () => {
    // The last argument is `file:<path>`: print the file's contents back.
    const cat = await script('cat-last', `${noteInput('cat-input')}; cat "$input"`);
    const run = await probeBytes(Buffer.from('hello'), ['-v', 'error'], {
      program: cat,
      timeoutMs: 5000,
      maxOutputBytes: 1024,
    });
    expect(run).toMatchObject({ code: 0, stdout: 'hello', timedOut: false, overflowed: false });
    expect(await inputFolderLeft('cat-input')).toBe(false);
  });

  it('kills a probe that outlives its deadline', async () => {
    const hang = await script('hang', `${noteInput('hang-input')}; exec sleep 30`);
    const run = await probeBytes(Buffer.from('x'), [], {
      program: hang,
      timeoutMs: 200,
      maxOutputBytes: 1024,
    });
    expect(run).toMatchObject({ code: null, timedOut: true });
    expect(await inputFolderLeft('hang-input')).toBe(false);
  });

  it('kills a probe that prints past its bound and keeps only the bound', async () => {
    const flood = await script('flood', 'exec yes');
    const run = await probeBytes(Buffer.from('x'), [], {
      program: flood,
      timeoutMs: 5000,
      maxOutputBytes: 4096,
    });
    expect(run.overflowed).toBe(true);
    expect(run.stdout.length).toBeLessThanOrEqual(4096);
  });

  it('fails plainly when the program does not exist', async () => {
    await expect(
      probeBytes(Buffer.from('x'), [], {
        program: join(dir, 'missing'),
        timeoutMs: 1000,
        maxOutputBytes: 10,
      }),
    ).rejects.toThrow(/ffprobe could not be started/);
  });
});

describe('ffprobeProgram', () => {
  it('is PLATEN_FFPROBE when set, else the installed binary', () => {
    expect(ffprobeProgram({ PLATEN_FFPROBE: '/opt/ffmpeg/bin/ffprobe' })).toBe('/opt/ffmpeg/bin/ffprobe');
    expect(ffprobeProgram({})).toMatch(/ffprobe(\.exe)?$/);
  });
});
