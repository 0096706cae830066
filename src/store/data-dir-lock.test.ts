/**
 * The data-dir lock: refused while held (in this process or another), free the moment its holder
 * dies however it dies, and blind to pid files.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUse, lockDataDir } from './data-dir-lock.ts';

const root = new URL('../..', import.meta.url).pathname;
const lockModule = new URL('./data-dir-lock.ts', import.meta.url).href;

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'platen-lock-'));
  dirs.push(dir);
  return dir;
}

/** Another process that takes the lock, says so, and holds it until killed. */
async function holder(dir: string): Promise<ChildProcess> {
  const script = `const { lockDataDir } = await import(${JSON.stringify(lockModule)});
lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
  });
  return child;
}

describe('data-dir lock', () => {
  it('refuses a second lock in the same process until the first is released', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
    expect(() => lockDataDir(dir)).toThrow(`PLATEN_DATA_DIR ${dir} is in use by another Platen process`);
    release();
    release(); // idempotent
    lockDataDir(dir)();
  });

  it('refuses while another process holds it, and is free at once after that process is killed -9', async () => {
    const dir = dataDir();
    const child = await holder(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    lockDataDir(dir)();
  });

  it('keeps holding after refused attempts in the same process (their closes release nothing)', async () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    for (let i = 0; i < 3; i++) expect(() => lockDataDir(dir)).toThrow(DataDirInUse);
    const probe = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { lockDataDir } = await import(${JSON.stringify(lockModule)});
try { lockDataDir(${JSON.stringify(dir)}); process.exit(0); } catch { process.exit(3); }`,
      ],
      { cwd: root, stdio: 'ignore' },
    );
    expect(await new Promise((resolve) => probe.once('exit', resolve))).toBe(3);
    release();
  });

  it('ignores and removes a pid file of an older version, even one naming a live process', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'platen.pid'), '1');
    const release = lockDataDir(dir);
    expect(existsSync(join(dir, 'platen.pid'))).toBe(false);
    release();
  });
});
