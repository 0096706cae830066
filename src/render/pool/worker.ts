/**
 * Piscina worker entry: renders one job at a time with the same code as renderInProcess. Fonts
 * and image caches live per worker thread and survive between jobs. A RenderError comes back as
 * data; anything else is rethrown and becomes an internal render failure in the pool.
 */
import sharp from 'sharp';
import { registerBundledFonts } from '../backends/fonts.ts';
import { RenderError, toWire } from '../errors.ts';
import { renderInProcess } from '../render.ts';
import type { WorkerResult, WorkerTask } from './protocol.ts';

// libvips's operation cache only ever holds the last renders' pixels here (each input is new): off.
sharp.cache(false);
registerBundledFonts();

export default async function run(task: WorkerTask): Promise<WorkerResult> {
  if (task.kind === 'warmup') return { ok: true, warmed: true };
  task.started?.postMessage('started');
  task.started?.close();
  try {
    return { ok: true, files: await renderInProcess(task.job) };
  } catch (error) {
    if (error instanceof RenderError) return { ok: false, error: toWire(error) };
    throw error;
  }
}
