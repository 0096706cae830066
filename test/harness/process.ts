/** Starts the service as a user does (`npm start`), as a child process on loopback. */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './server.ts';

export interface ServiceProcess {
  base: string;
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const root = new URL('../..', import.meta.url).pathname;

export async function startService(
  env: Record<string, string>,
  options: { waitReady?: boolean; command?: string[] } = {},
): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  // `npm start` by default; `command` runs another way in (e.g. `node bin/platen.js worker`).
  const [program, ...args] = options.command ?? ['npm', 'start', '--silent'];
  const child = spawn(program ?? 'npm', args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), PLATEN_BASE_URL: base, PLATEN_LOG_LEVEL: 'info', ...env },
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  // 'close' waits for every holder of the pipes (npm and the node process it started).
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const service: ServiceProcess = {
    base,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
      return Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    },
  };
  if (options.waitReady === false) return service;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited ${child.exitCode}: ${output.slice(-2000)}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return service;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await service.stop('SIGKILL');
  throw new Error(`service did not start: ${output.slice(-2000)}`);
}

export function waitForExit(service: ServiceProcess, ms = 30_000): Promise<number | null> {
  const { child } = service;
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}
