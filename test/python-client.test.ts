/**
 * The Python SDK (clients/python) against the real service: runs its unittest suite, which starts
 * `node dist/main.js` itself (global-setup has built it), and expects it to pass. Skipped, saying
 * why, when python3 is missing or older than 3.9, the oldest Python the SDK supports.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const TIMEOUT_MS = 180_000;

/** Why the suite cannot run here, or null when python3 is 3.9 or newer. */
function pythonMissing(): string | null {
  const probe = spawnSync('python3', ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0) return 'python3 is not installed';
  const [major = 0, minor = 0] = probe.stdout.trim().split('.').map(Number);
  if (major < 3 || (major === 3 && minor < 9)) return `python3 is ${probe.stdout.trim()}, older than 3.9`;
  return null;
}

const skip = pythonMissing();

function runUnittest(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'python3',
      ['-m', 'unittest', 'discover', '-s', 'clients/python/tests', '-t', 'clients/python', '-v'],
      {
        cwd: root,
        env: {
          ...process.env,
          PYTHONPATH: join(root, 'clients/python'),
          PYTHONDONTWRITEBYTECODE: '1',
          PYTHONUNBUFFERED: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    // The suite stops its own service on SIGTERM (its atexit handler); the test's own limit comes later.
    const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS - 10_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the Python SDK (clients/python)', () => {
  it.skipIf(skip !== null)(
    skip === null
      ? 'passes its unittest suite against the real service'
      : `passes its unittest suite against the real service (skipped: ${skip})`,
    async () => {
      const { code, output } = await runUnittest();
      if (code !== 0) console.error(output);
      expect(code, 'python3 -m unittest failed: its output is printed above').toBe(0);
      expect(output).toMatch(/\nOK\b/);
    },
    TIMEOUT_MS,
  );
});
