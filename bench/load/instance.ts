/**
 * Service processes for the soak and chaos runs (`node --enable-source-maps dist/main.js`, as `npm start`),
 * and what /proc says about them: resident memory of the service and of its render processes, and
 * its open file descriptors.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { ensureBuilt } from '../../test/global-setup.ts';
import { childrenMb, statusMb } from '../proc.ts';

// The services it starts run dist/: build it first when a source is newer.
ensureBuilt();

export const ADMIN = 'soak-admin-token-0123456789';

export interface Instance {
  base: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

export async function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      PLATEN_HOST: '127.0.0.1',
      PLATEN_ADMIN_TOKEN: ADMIN,
      PLATEN_LOG_LEVEL: 'warn',
      PLATEN_RENDER_RATE_LIMIT: '0',
      PLATEN_BOOTSTRAP: 'false',
      PLATEN_ALLOW_PRIVATE_URLS: 'true',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, child, exited };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`instance on ${port} did not start`);
}

export interface ProcessSample {
  at: number;
  serviceMb: number;
  renderProcessesMb: number;
  renderProcesses: number;
  /** Descriptors on files and pipes: a leak here is a bug whatever the load. */
  fileFds: number;
  /** Sockets: they follow the open connections at the moment of the sample. */
  socketFds: number;
}

/** Current RSS of the service and the sum over its children (render processes), and its fds. */
export function sample(pid: number, at: number): ProcessSample {
  const children = childrenMb(pid, 'VmRSS');
  const fds = descriptorTargets(pid);
  const socketFds = fds.filter((target) => target.startsWith('socket:')).length;
  return {
    at,
    serviceMb: statusMb(pid, 'VmRSS'),
    renderProcessesMb: children.reduce((a, b) => a + b, 0),
    renderProcesses: children.length,
    fileFds: fds.length - socketFds,
    socketFds,
  };
}

function descriptorTargets(pid: number): string[] {
  const dir = `/proc/${pid}/fd`;
  return readdirSync(dir).flatMap((fd) => {
    try {
      return [readlinkSync(`${dir}/${fd}`)];
    } catch {
      return []; // closed between the listing and the read
    }
  });
}
