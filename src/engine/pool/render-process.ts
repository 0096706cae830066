/**
 * Entry of one render process (started by the pool with child_process.fork): loads the renderer
 * and the bundled fonts once, then renders the jobs it is sent one at a time with renderInProcess.
 * A RenderError goes back as data; any other exception is written to stderr and answered as an
 * internal failure. Caches (fonts, decoded images) live as long as the process.
 *
 * It never outlives the pool's process: it exits when the IPC channel closes ('disconnect'), and,
 * because that event cannot run while the main thread is busy in native code (Skia, resvg), a
 * small watchdog thread also kills it when its parent process is gone. It leads its own process
 * group (the pool starts it `detached`); the ffmpeg runs of a video render belong to that group, so
 * the watchdog kills the group, and an exit kills the runs (src/engine/video/ffmpeg.ts).
 */
import { Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { registerBundledFonts } from '../backends/fonts.ts';
import { cacheStats } from '../backends/lru.ts';
import { RenderError, toWire } from '../errors.ts';
import { renderInProcess } from '../render.ts';
import type { RenderJob } from '../types.ts';
import { BULK_FD, writeBulk } from './bulk.ts';
import type { AnsweredFile, ChildMessage, RenderAnswer, RenderRequest } from './protocol.ts';
import { withHeldAssets } from './shipped-assets.ts';
import { StagedWrites } from './staged-writes.ts';

const send = process.send?.bind(process);
if (!send) {
  process.stderr.write('render-process.ts runs under the render pool (child_process.fork) only\n');
  process.exit(1);
}

// A parent that dies (even by SIGKILL) makes this process an orphan: its parent id changes.
// Plain JavaScript, no tsx: the thread costs about 10 MB.
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid === workerData.parent) return;
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    process.kill(process.pid, 'SIGKILL');
  }
}, 250);
`;
new Worker(WATCHDOG, {
  eval: true,
  workerData: { parent: process.ppid },
  execArgv: [],
  resourceLimits: { maxOldGenerationSizeMb: 16 },
}).unref();
process.on('disconnect', () => process.exit(0));
// systemd's stop signals every process of the service (a terminal's Ctrl-C no longer reaches this
// process group). The service decides when they end (after the renders in flight, on its own
// graceful shutdown): they outlive the signal, and still end with the service (disconnect,
// watchdog) or by SIGKILL.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {});

// libvips's operation cache only ever holds the last renders' pixels here (each input is new): off.
sharp.cache(false);
registerBundledFonts();

const bulk = new Socket({ fd: BULK_FD, readable: false, writable: true });

async function answer(job: RenderJob, outputDir: string | undefined): Promise<RenderAnswer> {
  const staged = outputDir ? new StagedWrites(outputDir) : null;
  try {
    const rendered = await renderInProcess(
      job,
      staged ? { onLeadingBytes: (file, bytes) => staged.begin(file, bytes) } : {},
    );
    let files: AnsweredFile[];
    if (staged) {
      files = [];
      for (const [index, { bytes, ...rest }] of rendered.entries())
        files.push({ ...rest, byteLength: bytes.byteLength, path: await staged.finish(index, bytes) });
    } else {
      await writeBulk(
        bulk,
        rendered.map((file) => file.bytes),
      );
      files = rendered.map(({ bytes, ...rest }) => ({ ...rest, byteLength: bytes.byteLength }));
    }
    return { kind: 'answer', ok: true, files, rssBytes: process.memoryUsage.rss(), caches: cacheStats() };
  } catch (error) {
    // discard never throws: the render's own error is what is answered.
    await staged?.discard();
    return {
      kind: 'answer',
      ok: false,
      error: toWire(asRenderError(error)),
      rssBytes: process.memoryUsage.rss(),
      caches: cacheStats(),
    };
  }
}

function asRenderError(error: unknown): RenderError {
  if (error instanceof RenderError) return error;
  process.stderr.write(`render process: ${error instanceof Error ? error.stack : String(error)}\n`);
  return new RenderError('The render failed inside the renderer.', { reason: 'internal' });
}

process.on('message', (message: RenderRequest) => {
  const job = withHeldAssets(message.job, message.knownAssets ?? []);
  if (!job) {
    send({ kind: 'need-assets' } satisfies ChildMessage);
    return;
  }
  void answer(job, message.outputDir).then((reply) => send(reply satisfies ChildMessage));
});
send({ kind: 'ready' } satisfies ChildMessage);
