/**
 * Video elements' frames, decoded by ffmpeg as raw RGBA at the size they are drawn (never above the
 * clip's own). "The frame at clip time c" is the last frame that starts at or before c, as a player
 * shows it: ffmpeg seeks to the keyframe at or before the first time wanted (`-noaccurate_seek`
 * keeps the frames from there, each with its time, read from `showinfo`), and the frames are read
 * in order until the next one starts after c. A still decodes just that stretch; a video keeps one
 * decoder per element streaming forward (one frame per output frame at most, so a clip playing at
 * the video's rate is decoded once) and starts a new one when a looping clip wraps. Either way
 * the same frame comes out for the same time, so a video's frame at t equals a still at t.
 */

import type { Readable } from 'node:stream';
import { type Canvas, createCanvas, ImageData } from '@napi-rs/canvas';
import {
  ImageSourceError,
  type VideoFrameRequest,
  type VideoFrameSource,
} from '../backends/image-sources.ts';
import type { LoadedImage } from '../backends/images.ts';
import { type FfmpegRun, ffSeconds, runFfmpeg } from './ffmpeg.ts';
import type { MediaCatalog } from './media.ts';
import type { ScratchDir } from './scratch.ts';

/** Pixels of one decoded frame: the 4096 × 4096 upload limit. */
const MAX_DECODED_PIXELS = 4096 * 4096;

interface DecodedFrame {
  /** Microseconds into the clip (from the file's start). */
  timeUs: number;
  rgba: Buffer;
}

/** Frames a decoder may have read ahead before ffmpeg is paused (a pipe's worth more waits in the kernel). */
const READ_AHEAD_FRAMES = 2;

/** One ffmpeg decoding a clip from `startMs` (its keyframe at or before) into RGBA frames with their times. */
class ClipStream {
  private readonly run: FfmpegRun;
  private readonly frameBytes: number;
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private readonly times: number[] = [];
  private timeBase: [number, number] | null = null;
  private ended = false;
  private failed = false;
  private wake: (() => void) | null = null;

  constructor(
    file: string,
    private readonly startMs: number,
    readonly width: number,
    readonly height: number,
  ) {
    this.frameBytes = width * height * 4;
    // No `-t`: with `-noaccurate_seek` it would count from the keyframe, not from startMs. ffmpeg
    // decodes only as far ahead as the paused pipe lets it, and is killed when no longer needed.
    // The upload's probe read the container's headers; a stream whose frames are larger than they
    // declare is stopped by the decoder itself (4096² is the upload limit, src/assets/media.ts).
    const input = [
      '-max_pixels',
      String(MAX_DECODED_PIXELS),
      '-noaccurate_seek',
      ...(startMs > 0 ? ['-ss', ffSeconds(startMs)] : []),
    ];
    this.run = runFfmpeg(
      [
        '-loglevel',
        'info',
        ...input,
        '-i',
        file,
        '-map',
        '0:v:0',
        '-vf',
        // Plain bicubic: accurate rounding and full chroma interpolation tripled the decoder's
        // work on a 1080p clip (2.9 against 1.1 CPU seconds for 4 s) for no visible difference.
        `scale=${width}:${height}:flags=bicubic,format=rgba,showinfo`,
        '-vsync',
        'passthrough',
        '-f',
        'rawvideo',
        'pipe:1',
      ],
      { stdout: true, onLine: (line) => this.line(line) },
    );
    const stdout = this.run.stdout as Readable;
    stdout.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      if (this.buffered >= READ_AHEAD_FRAMES * this.frameBytes) stdout.pause();
      this.notify();
    });
    this.run.done.then(
      () => this.finish(false),
      () => this.finish(true),
    );
  }

  private finish(failed: boolean): void {
    this.ended = true;
    this.failed = failed;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private line(line: string): void {
    if (!line.includes('Parsed_showinfo')) return;
    const base = /config in time_base: (\d+)\/(\d+)/.exec(line);
    if (base) {
      this.timeBase = [Number(base[1]), Number(base[2])];
      return;
    }
    const frame = /\bn:\s*\d+\s+pts:\s*(-?\d+)/.exec(line);
    if (!frame || !this.timeBase) return;
    const [num, den] = this.timeBase;
    // showinfo's times count from the seek point; the clip's from the file's start.
    this.times.push(Math.round(this.startMs * 1000 + (Number(frame[1]) * num * 1e6) / den));
    this.notify();
  }

  /** The next frame, or null once the clip (or the stretch asked for) has ended. */
  async next(): Promise<DecodedFrame | null> {
    for (;;) {
      if (this.buffered >= this.frameBytes && this.times.length > 0) return this.take();
      if (this.ended) {
        if (this.failed && this.times.length === 0 && this.buffered === 0 && !this.tookAny)
          throw new ImageSourceError('the video could not be decoded');
        return null;
      }
      (this.run.stdout as Readable).resume();
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private tookAny = false;

  private take(): DecodedFrame {
    const rgba = Buffer.allocUnsafe(this.frameBytes);
    let filled = 0;
    while (filled < this.frameBytes) {
      const chunk = this.chunks[0] as Buffer;
      const used = Math.min(chunk.length, this.frameBytes - filled);
      chunk.copy(rgba, filled, 0, used);
      filled += used;
      if (used === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(used);
    }
    this.buffered -= this.frameBytes;
    this.tookAny = true;
    return { timeUs: this.times.shift() as number, rgba };
  }

  close(): Promise<void> {
    return this.run.stop();
  }
}

/** The picture size a frame is decoded at: the drawn size, or the clip's own when that is smaller. */
function decodeSize(request: VideoFrameRequest, clip: { width: number; height: number }): [number, number] {
  const fits = request.deviceWidth <= clip.width && request.deviceHeight <= clip.height;
  return fits ? [request.deviceWidth, request.deviceHeight] : [clip.width, clip.height];
}

/** Reads one clip forward and hands out the frame shown at each (non-decreasing) time. */
class ClipCursor {
  private stream: ClipStream | null = null;
  private shown: DecodedFrame | null = null;
  private upcoming: DecodedFrame | null = null;
  private lastMs = Number.NEGATIVE_INFINITY;
  private canvas: Canvas | null = null;
  private image: LoadedImage | null = null;

  constructor(
    private readonly file: string,
    private readonly assetId: string,
    readonly width: number,
    readonly height: number,
  ) {}

  async frameAt(clipMs: number): Promise<LoadedImage> {
    if (!this.stream || clipMs < this.lastMs) await this.restart(clipMs);
    this.lastMs = clipMs;
    const stream = this.stream as ClipStream;
    const limitUs = clipMs * 1000;
    while (!this.upcoming || this.upcoming.timeUs <= limitUs) {
      if (this.upcoming) this.shown = this.upcoming;
      const next = await stream.next();
      if (!next) {
        // The clip ended: its last frame stays.
        this.upcoming = null;
        break;
      }
      this.upcoming = next;
    }
    // Before the clip's first frame: that frame.
    const frame = this.shown ?? this.upcoming;
    if (!frame) throw new ImageSourceError('the video has no frames');
    return this.imageOf(frame);
  }

  private async restart(clipMs: number): Promise<void> {
    await this.stream?.close();
    this.stream = new ClipStream(this.file, clipMs, this.width, this.height);
    this.shown = null;
    this.upcoming = null;
  }

  private imageOf(frame: DecodedFrame): LoadedImage {
    const id = `clip:${this.assetId}@${frame.timeUs}:${this.width}x${this.height}`;
    if (this.image?.id === id) return this.image;
    // One canvas per element: a frame is drawn before the next one is decoded into it.
    this.canvas ??= createCanvas(this.width, this.height);
    const pixels = new Uint8ClampedArray(frame.rgba.buffer, frame.rgba.byteOffset, frame.rgba.byteLength);
    this.canvas.getContext('2d').putImageData(new ImageData(pixels, this.width, this.height), 0, 0);
    this.image = { kind: 'bitmap', id, width: this.width, height: this.height, image: this.canvas };
    return this.image;
  }

  /** Stops decoding; the last frame handed out stays drawable. */
  async stop(): Promise<void> {
    const stream = this.stream;
    this.stream = null;
    await stream?.close();
  }

  async close(): Promise<void> {
    await this.stop();
    if (this.canvas) {
      this.canvas.width = 1;
      this.canvas.height = 1;
    }
  }
}

/**
 * Video frames for one render. `streaming`: a video's scene, whose frames come in time order (one
 * decoder per element); otherwise each frame is decoded on its own.
 */
export class ClipFrames implements VideoFrameSource {
  private readonly cursors = new Map<string, ClipCursor>();

  constructor(
    private readonly media: MediaCatalog,
    private readonly scratch: ScratchDir,
    private readonly streaming: boolean,
  ) {}

  /** A clip's length by `asset:<id>`, once known (design/timeline.ts `TimeOptions.mediaDurationMs`). */
  readonly durationMs = (src: string): number | undefined => this.media.durationMs(src);

  async clipSize(assetId: string): Promise<{ width: number; height: number }> {
    const info = await this.media.info(assetId);
    if (!info.hasVideo || !info.width || !info.height)
      throw new ImageSourceError(`asset ${assetId} has no video to show`);
    return { width: info.width, height: info.height };
  }

  async frame(request: VideoFrameRequest): Promise<LoadedImage> {
    const [width, height] = decodeSize(request, await this.clipSize(request.assetId));
    const file = await this.scratch.asset(request.assetId);
    if (!this.streaming) {
      const cursor = new ClipCursor(file, request.assetId, width, height);
      try {
        return await cursor.frameAt(request.clipMs);
      } finally {
        await cursor.stop();
      }
    }
    const key = `${request.elementId}\u0000${request.assetId}`;
    let cursor = this.cursors.get(key);
    if (!cursor || cursor.width !== width || cursor.height !== height) {
      await cursor?.close();
      cursor = new ClipCursor(file, request.assetId, width, height);
      this.cursors.set(key, cursor);
    }
    return cursor.frameAt(request.clipMs);
  }

  /** Stops every decoder and waits until they have exited. */
  async close(): Promise<void> {
    const cursors = [...this.cursors.values()];
    this.cursors.clear();
    await Promise.all(cursors.map((cursor) => cursor.close()));
  }
}
