/**
 * One render process seen from the pool: forks render-process.ts (compiled, see entry.ts; heap capped
 * with --max-old-space-size), knows when it is ready, sends it one job at a time, reads its resident
 * set size from /proc, and kills it. Its stderr is passed through to ours; a V8 heap exhaustion
 * found there is reported, so the pool can say 'out of memory' rather than 'internal'.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { RenderJob } from '../types.ts';
import { BULK_FD, BulkReader } from './bulk.ts';
import { renderProcessEntry } from './entry.ts';
import type { ChildMessage, RenderAnswer, RenderOutcome, RenderRequest } from './protocol.ts';
import { ShippedAssets } from './shipped-assets.ts';

/** How a process ended, as far as its last render is concerned. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  heapExhausted: boolean;
}

export class ChildGone extends Error {
  constructor(readonly exit: ChildExit) {
    super(`render process exited (code ${exit.code}, signal ${exit.signal})`);
    this.name = 'ChildGone';
  }
}

export class RenderChild {
  readonly ready: Promise<void>;
  /** Settles when the process has exited and its pipes are closed. */
  readonly gone: Promise<ChildExit>;
  isReady = false;
  busy = false;
  private readonly process: ChildProcess;
  private pending: { resolve(answer: RenderOutcome): void; reject(error: Error): void } | undefined;
  private heapExhausted = false;
  private readonly bulk: BulkReader;
  private readonly shipped = new ShippedAssets();
  /** The job in flight, kept to send again whole if the process dropped an asset it held. */
  private current: RenderJob | undefined;

  constructor(options: { maxHeapMb: number }) {
    const entry = renderProcessEntry();
    this.process = fork(entry.path, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${options.maxHeapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc', 'pipe'],
    });
    this.bulk = new BulkReader(this.process.stdio[BULK_FD] as Readable);
    this.process.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.includes('JavaScript heap out of memory')) this.heapExhausted = true;
      process.stderr.write(chunk);
    });
    this.gone = new Promise((resolve) => {
      const end = (exit: ChildExit) => {
        this.pending?.reject(new ChildGone(exit));
        this.pending = undefined;
        resolve(exit);
      };
      this.process.once('close', (code, signal) => end({ code, signal, heapExhausted: this.heapExhausted }));
      // A process that could not be started (e.g. EAGAIN) is gone too; other errors are only reported.
      this.process.on('error', (error) => {
        process.stderr.write(`render process: ${error.message}\n`);
        if (this.process.pid === undefined) end({ code: null, signal: null, heapExhausted: false });
      });
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.process.on('message', (message: ChildMessage) => {
        if (message.kind === 'ready') {
          this.isReady = true;
          resolve();
        } else if (message.kind === 'need-assets') {
          this.shipped.forget();
          if (this.current) this.send(this.current, true);
        } else {
          // The pending render stays pending while its bytes arrive: a death meanwhile rejects it.
          const pending = this.pending;
          void this.withBytes(message).then(
            (outcome) => {
              if (this.pending !== pending) return;
              this.pending = undefined;
              this.current = undefined;
              pending?.resolve(outcome);
            },
            (error: Error) => {
              if (this.pending !== pending) return;
              this.pending = undefined;
              this.current = undefined;
              pending?.reject(error);
            },
          );
        }
      });
      void this.gone.then((exit) => reject(new ChildGone(exit)));
    });
    // Whoever cares awaits `ready`; a process that dies during start must not be an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** Still running, with its IPC channel open. */
  get alive(): boolean {
    return this.process.connected;
  }

  private async withBytes(answer: RenderAnswer): Promise<RenderOutcome> {
    if (!answer.ok) return answer;
    const files = [];
    for (const { byteLength, ...file } of answer.files)
      files.push({ ...file, bytes: await this.bulk.read(byteLength) });
    return { ...answer, files };
  }

  /** Sends one job; settles with the answer, or rejects with ChildGone if the process dies first. */
  run(job: RenderJob): Promise<RenderOutcome> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.current = job;
      this.send(job, false);
    });
  }

  private send(job: RenderJob, whole: boolean): void {
    const request: RenderRequest = whole
      ? { kind: 'render', job, knownAssets: [] }
      : { kind: 'render', ...this.shipped.split(job) };
    this.process.send(request, (error) => {
      if (error && this.pending) {
        const { reject } = this.pending;
        this.pending = undefined;
        reject(error);
      }
    });
  }

  /** Resident set size in bytes from /proc/<pid>/status (Linux); undefined elsewhere or once gone. */
  rssBytes(): number | undefined {
    try {
      const status = readFileSync(`/proc/${this.process.pid}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /** SIGKILL: stops it at once, whatever it is doing (native code included). */
  kill(): void {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
  }
}
