/**
 * Messages between the pool and its workers. Errors cross the thread boundary as data (a class
 * instance would arrive as a plain Error), so the worker answers with a tagged result.
 */
import type { MessagePort } from 'node:worker_threads';
import type { WireError } from '../errors.ts';
import type { RenderedFile, RenderJob } from '../types.ts';

/** `started` receives one message when a worker picks the job up (the deadline starts then). */
export type WorkerTask = { kind: 'render'; job: RenderJob; started?: MessagePort } | { kind: 'warmup' };

export type WorkerResult =
  | { ok: true; files: RenderedFile[] }
  | { ok: false; error: WireError }
  | { ok: true; warmed: true };
