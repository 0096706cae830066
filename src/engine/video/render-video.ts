/**
 * A video render: the job's pages in order as scenes (design/timeline.ts `scenesOf`), each frame
 * drawn by the scenes it shows (`layersAt`: one, or two during a transition, the next one faded in
 * over the previous one or both slid), streamed as raw RGBA into ffmpeg (encode.ts) with the mixed
 * sound (audio.ts), written to a file in a scratch folder, read back and the folder removed.
 *
 * Frames: frame i shows time i / fps; there are round(duration × fps) of them. A frame that shows
 * one scene is that scene's canvas as it is, the page's still render at that time (scene.ts). MP4
 * and WebM need even sides (yuv420p): an odd side gets one more column or row, a copy of the last.
 */
import { readFile } from 'node:fs/promises';
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import { frameCount, frameTimeMs, layersAt, mediaSources, type Page, scenesOf } from '../../design/index.ts';
import type { FetchPolicy } from '../../outbound/index.ts';
import { fontCatalogFor } from '../backends/fonts.ts';
import { ImageSourceError } from '../backends/image-sources.ts';
import { videoCostProblem, videoFrameSize } from '../cost-limits.ts';
import { RenderError } from '../errors.ts';
import type { CheckedJob } from '../job.ts';
import { MIME_TYPES, type RenderedFile, type RenderJob, type VideoFormat } from '../types.ts';
import { soundInputs, soundsOf } from './audio.ts';
import { type EncodeSettings, FrameSink, gifArgs, gifPaletteArgs, videoArgs } from './encode.ts';
import { FfmpegFailed } from './ffmpeg.ts';
import { MediaCatalog } from './media.ts';
import { SceneRenderer, type SceneSetup, type SceneStats } from './scene.ts';
import { ScratchDir } from './scratch.ts';

export interface VideoOptions {
  /** Test seam for hostile-URL tests: parts of the image fetch policy. */
  fetchPolicy?: Partial<FetchPolicy>;
  /** false: every frame drawn whole, as a still is (tests and the bench compare against it). */
  reuse?: boolean;
}

export interface FramePlan {
  format: VideoFormat;
  fps: number;
  frames: number;
  /** The video's length: frames / fps. */
  durationMs: number;
  /** A scene's canvas: the page at the job's scale. */
  width: number;
  height: number;
  /** The encoded frame (MP4 and WebM: sides rounded up to even). */
  outWidth: number;
  outHeight: number;
}

/** A video being rendered: its plan, its frames in order, and what must be released after. */
export class VideoSession {
  private readonly renderers = new Map<number, SceneRenderer>();
  private readonly stats: SceneStats[] = [];

  constructor(
    readonly plan: FramePlan,
    readonly pages: Page[],
    private readonly setup: SceneSetup,
    readonly scratch: ScratchDir,
    readonly media: MediaCatalog,
  ) {}

  /** Every frame as RGBA bytes (a new buffer each), in order; may run more than once (GIF's two passes). */
  async *frames(): AsyncGenerator<Uint8Array> {
    const { plan, pages } = this;
    let composite: Canvas | null = null;
    // The last frame as yielded, and how its scenes were laid over each other.
    let last: { bytes: Uint8Array; layout: string } | null = null;
    try {
      for (let index = 0; index < plan.frames; index++) {
        const layers = layersAt(pages, frameTimeMs(index, plan.fps));
        // Scenes come in order: one no longer shown never is again.
        for (const [pageIndex, renderer] of this.renderers) {
          if (layers.some((layer) => layer.pageIndex === pageIndex)) continue;
          await this.retire(pageIndex, renderer);
        }
        const canvases: Canvas[] = [];
        let changed = false;
        for (const layer of layers) {
          let renderer = this.renderers.get(layer.pageIndex);
          if (!renderer) {
            renderer = new SceneRenderer(pages[layer.pageIndex] as Page, this.setup);
            this.renderers.set(layer.pageIndex, renderer);
          }
          if (await renderer.draw(layer.timeMs)) changed = true;
          canvases.push(renderer.canvas);
        }
        // Nothing was drawn and the scenes lie as before: the frame is the last one (a held
        // page costs neither a read-back nor a copy). Yielded bytes are never written to.
        const layout = JSON.stringify(
          layers.map(({ pageIndex, alpha, offsetX }) => [pageIndex, alpha, offsetX]),
        );
        if (last && !changed && last.layout === layout) {
          yield last.bytes;
          continue;
        }
        const only = layers.length === 1 && layers[0]?.alpha === 1 && layers[0].offsetX === 0;
        let frame = canvases[0] as Canvas;
        if (!only) {
          composite ??= createCanvas(plan.width, plan.height);
          frame = this.compose(composite, layers, canvases);
        }
        last = { bytes: padded(frame.data(), plan), layout };
        yield last.bytes;
      }
    } finally {
      for (const [pageIndex, renderer] of this.renderers) await this.retire(pageIndex, renderer);
      if (composite) {
        composite.width = 1;
        composite.height = 1;
      }
    }
  }

  /** Two scenes in one frame: the next faded in over the previous one, or both slid. */
  private compose(canvas: Canvas, layers: ReturnType<typeof layersAt>, canvases: Canvas[]): Canvas {
    const ctx = canvas.getContext('2d');
    const pageWidth = (this.pages[0] as Page).width;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalCompositeOperation = 'source-over';
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    // Whole pixels, the second scene exactly one width after the first: no seam, no overlap.
    const first = layers[0];
    const firstX = Math.round(((first?.offsetX ?? 0) * canvas.width) / pageWidth);
    layers.forEach((layer, index) => {
      const x = firstX + Math.round((layer.offsetX - (first?.offsetX ?? 0)) / pageWidth) * canvas.width;
      ctx.globalAlpha = layer.alpha;
      ctx.drawImage(canvases[index] as Canvas, x, 0);
    });
    ctx.globalAlpha = 1;
    return canvas;
  }

  private async retire(pageIndex: number, renderer: SceneRenderer): Promise<void> {
    this.stats.push({ ...renderer.stats });
    this.renderers.delete(pageIndex);
    await renderer.close();
  }

  /** What drawing the frames took, summed over the scenes drawn so far. */
  drawStats(): SceneStats {
    const all = [...this.stats, ...[...this.renderers.values()].map((renderer) => renderer.stats)];
    return all.reduce(
      (sum, s) => ({
        frames: sum.frames + s.frames,
        redrawn: sum.redrawn + s.redrawn,
        dirtyPixels: sum.dirtyPixels + s.dirtyPixels,
      }),
      { frames: 0, redrawn: 0, dirtyPixels: 0 },
    );
  }

  async dispose(): Promise<void> {
    // Every ffmpeg has exited before its scratch folder goes.
    for (const [pageIndex, renderer] of this.renderers) await this.retire(pageIndex, renderer);
    await this.scratch.dispose();
  }
}

/** The frame as encoded: odd sides grown by a copy of the last column or row. */
function padded(rgba: Uint8Array, plan: FramePlan): Uint8Array {
  const { width, height, outWidth, outHeight } = plan;
  if (width === outWidth && height === outHeight) return rgba;
  const out = Buffer.allocUnsafe(outWidth * outHeight * 4);
  const source = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  for (let y = 0; y < outHeight; y++) {
    const from = Math.min(y, height - 1) * width * 4;
    const to = y * outWidth * 4;
    source.copy(out, to, from, from + width * 4);
    if (outWidth > width) source.copy(out, to + width * 4, from + (width - 1) * 4, from + width * 4);
  }
  return out;
}

/** Opens a video render: plans its frames and resolves what its clips and sounds are. */
export async function openVideo(
  job: RenderJob,
  checked: CheckedJob,
  options: VideoOptions = {},
): Promise<VideoSession> {
  const format = job.format as VideoFormat;
  const pages = checked.pages;
  const first = pages[0] as Page;
  const { scale, fps } = checked;
  const frames = frameCount(scenesOf(pages).durationMs, fps);
  const [outWidth, outHeight] = videoFrameSize(first, format, scale);
  const plan: FramePlan = {
    format,
    fps,
    frames,
    durationMs: frameTimeMs(frames, fps),
    width: Math.max(1, Math.round(first.width * scale)),
    height: Math.max(1, Math.round(first.height * scale)),
    outWidth,
    outHeight,
  };
  const scratch = new ScratchDir(job.assets);
  const media = new MediaCatalog(job.assets, scratch);
  try {
    // Every played asset is known before the first frame: clip lengths drive loops, and the
    // lengths of assets the job did not describe are bounded like the others.
    for (const src of mediaSources({ pages, audio: job.document.audio })) {
      await media.info(src.slice('asset:'.length)).catch((error: unknown) => {
        if (!(error instanceof ImageSourceError)) throw error;
        throw new RenderError(`The video cannot play ${src}: ${error.reason}.`, { reason: error.reason });
      });
    }
    const problem = videoCostProblem(pages, { format, fps, scale, audio: job.document.audio }, (src) =>
      media.known(src.slice('asset:'.length)),
    );
    if (problem) throw new RenderError(`${problem.message}.`, { reason: problem.reason });
  } catch (error) {
    await scratch.dispose();
    throw error;
  }
  const setup: SceneSetup = {
    fonts: fontCatalogFor(job.workspaceId, job.fonts),
    context: {
      assets: job.assets,
      allowPrivateUrls: job.allowPrivateUrls ?? false,
      ...(options.fetchPolicy ? { fetchPolicy: options.fetchPolicy } : {}),
    },
    scale,
    width: plan.width,
    height: plan.height,
    media,
    scratch,
    reuse: options.reuse ?? true,
  };
  return new VideoSession(plan, pages, setup, scratch, media);
}

async function encodePass(session: VideoSession, args: string[]): Promise<void> {
  const sink = FrameSink.start(args);
  try {
    for await (const frame of session.frames()) await sink.write(frame);
    await sink.end();
  } catch (error) {
    if (error instanceof FfmpegFailed) {
      process.stderr.write(`video encoder: ${error.log}\n`);
      throw new RenderError('The video could not be encoded.', { reason: 'encoding failed' });
    }
    throw error;
  } finally {
    await sink.stop();
  }
}

/** Renders a checked video job into one file (MP4, WebM or GIF). */
export async function renderVideo(
  job: RenderJob,
  checked: CheckedJob,
  options: VideoOptions = {},
): Promise<RenderedFile[]> {
  const session = await openVideo(job, checked, options);
  try {
    const { plan, scratch } = session;
    const output = await scratch.file(`out.${plan.format}`);
    const settings: EncodeSettings = {
      format: plan.format,
      width: plan.outWidth,
      height: plan.outHeight,
      fps: plan.fps,
      quality: checked.quality,
      dither: job.dither ?? true,
      output,
    };
    if (plan.format === 'gif') {
      const palette = await scratch.file('palette.png');
      await encodePass(session, gifPaletteArgs(settings, palette));
      await encodePass(session, gifArgs(settings, palette));
    } else {
      const { scenes } = scenesOf(session.pages);
      const sounds = await soundsOf(
        session.pages,
        scenes,
        job.document.audio,
        plan.durationMs,
        session.media,
      );
      if (sounds.length > 0)
        settings.sound = await soundInputs(sounds, 1, plan.durationMs, scratch).catch((error: unknown) => {
          if (!(error instanceof FfmpegFailed)) throw error;
          throw new RenderError('A sound of the video could not be decoded.', {
            reason: 'audio could not be decoded',
          });
        });
      await encodePass(session, videoArgs(settings));
    }
    const bytes = await readFile(output);
    return [
      {
        bytes,
        width: plan.outWidth,
        height: plan.outHeight,
        mimeType: MIME_TYPES[plan.format],
        pageIds: session.pages.map((page) => page.id),
        durationMs: Math.round(plan.durationMs),
        frames: plan.frames,
      },
    ];
  } finally {
    await session.dispose();
  }
}
