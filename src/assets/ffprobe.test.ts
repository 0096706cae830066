/**
 * The probe runner's bounds, with stand-in programs that misbehave as a hostile file could make
 * ffprobe do: never finish (killed at the deadline), print without end (killed at the output
 * bound). The bytes' temporary file is gone afterwards whatever happened.
 */
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobeProgram, probeBytes } from './ffprobe.ts';

let dir: string;
const script = async (name: string, body: string) => {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
};
/** Probe directories this process left in the temporary folder. */
const leftovers = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('platen-probe-'));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platen-ffprobe-test-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('probeBytes', () => {
  it('hands the program the bytes as a file: and removes the file afterwards', async () => {
    const before = await leftovers();
    // The last argument is `file:<path>`: print the file's contents back.
    const cat = await script('cat-last', 'for last; do :; done; cat "$(printf %s "$last" | cut -c6-)"');
    const run = await probeBytes(Buffer.from('hello'), ['-v', 'error'], {
      program: cat,
      timeoutMs: 5000,
      maxOutputBytes: 1024,
    });
    expect(run).toMatchObject({ code: 0, stdout: 'hello', timedOut: false, overflowed: false });
    expect(await leftovers()).toEqual(before);
  });

  it('kills a probe that outlives its deadline', async () => {
    const before = await leftovers();
    const hang = await script('hang', 'exec sleep 30');
    const run = await probeBytes(Buffer.from('x'), [], {
      program: hang,
      timeoutMs: 200,
      maxOutputBytes: 1024,
    });
    expect(run).toMatchObject({ code: null, timedOut: true });
    expect(await leftovers()).toEqual(before);
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
