/**
 * A stored file survives a power loss once `put` or `adopt` returns: its bytes are synced before
 * the rename, and the directory holding its new name after it (with the parents of directories
 * the call created). Watched with strace, which shows each sync with the path of its descriptor;
 * skipped, saying so, where strace is not installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace)
  console.warn('skipped: the folder store durability test needs strace (apt-get install strace)');

/** What the child does: a put, then an adopt of a staged file, each into new directories. */
const script = `
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FolderFileStore } from ${JSON.stringify(join(import.meta.dirname, 'folder.ts'))};
const store = new FolderFileStore(process.argv[1]);
await store.put('renders/ws/a/put.png', new Uint8Array([1, 2, 3]), 'image/png');
await mkdir(store.stagingDir, { recursive: true });
const staged = join(store.stagingDir, 'staged.png');
await writeFile(staged, new Uint8Array([4, 5, 6]));
await store.adopt('renders/ws/b/adopted.png', staged, 'image/png');
`;

describe.skipIf(!hasStrace)('FolderFileStore durability (strace: syncs seen in order)', () => {
  let root: string;
  let trace: string[];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'platen-durability-'));
    const out = join(root, 'trace.txt');
    execFileSync(
      'strace',
      [
        '-f',
        '-y',
        '-qq',
        '-e',
        'trace=fsync,fdatasync,rename,renameat,renameat2',
        '-o',
        out,
        process.execPath,
      ].concat(['--import', 'tsx', '--input-type=module', '-e', script, join(root, 'files')]),
      { stdio: 'inherit' },
    );
    // Threads interleave: a call strace shows "unfinished" is matched by the line that starts it.
    trace = readFileSync(out, 'utf8').split('\n');
  }, 60_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const files = () => join(root, 'files');
  /** The first line at or after `from` that starts a sync of `path`. */
  const syncOf = (path: string, from = 0) =>
    trace.findIndex(
      (line, i) => i >= from && /\b(fsync|fdatasync)\(\d+</.test(line) && line.includes(`<${path}>`),
    );
  const renameTo = (path: string) =>
    trace.findIndex(
      (line) => /rename/.test(line) && line.includes(`"${path}"`) && !line.includes('unfinished'),
    );

  for (const [call, dir, name] of [
    ['put', 'a', 'put.png'],
    ['adopt', 'b', 'adopted.png'],
  ] as const) {
    it(`${call}: syncs the file, renames it, then syncs its directory and the new directories' parents`, () => {
      const target = join(files(), 'renders', 'ws', dir, name);
      const renamed = renameTo(target);
      expect(renamed, `no rename to ${target} in:\n${trace.join('\n')}`).toBeGreaterThan(-1);
      // The bytes were synced under the temporary name, before the rename.
      expect(trace.slice(0, renamed).some((line) => /fdatasync|fsync/.test(line))).toBe(true);
      const leaf = join(files(), 'renders', 'ws', dir);
      expect(syncOf(leaf, renamed), `the directory ${leaf} is not synced after the rename`).toBeGreaterThan(
        renamed,
      );
      // `b` is new for adopt, everything up to the root is new for put.
      const parents =
        call === 'put'
          ? [join(files(), 'renders', 'ws'), join(files(), 'renders'), files(), root]
          : [join(files(), 'renders', 'ws')];
      for (const parent of parents)
        expect(syncOf(parent, renamed), `the new directory's parent ${parent} is not synced`).toBeGreaterThan(
          renamed,
        );
    });
  }
});
