/**
 * Child processes of the head-to-head benchmark: a peer server started and awaited until it says
 * `listening <port>` (protocol.ts), and every child stopped again, whatever happened.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child {
  name: string;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface PeerProcess extends Child {
  base: string;
}

export function asChild(name: string, child: ChildProcess): Child {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    name,
    process: child,
    async stop(graceMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `node --import tsx <script> ...args`, ready once it prints `listening <port>`. */
export async function spawnPeer(name: string, script: string, args: string[], timeoutMs = 60_000) {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const handle = asChild(name, child);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name} did not start in ${timeoutMs} ms`)),
        timeoutMs,
      );
      child.once('exit', (code, signal) =>
        reject(new Error(`${name} exited (${code ?? signal}) before listening`)),
      );
      child.once('error', reject);
      const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
      lines.on('line', (line) => {
        const match = /^listening (\d+)$/.exec(line);
        if (!match) return void process.stderr.write(`${name}: ${line}\n`);
        clearTimeout(timer);
        resolve(Number(match[1]));
      });
    });
    return { ...handle, base: `http://127.0.0.1:${port}` } satisfies PeerProcess;
  } catch (error) {
    await handle.stop();
    throw error;
  }
}
