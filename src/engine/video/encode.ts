/**
 * The encoder: ffmpeg reading raw RGBA frames on its stdin (written with backpressure, so at most a
 * pipe's worth of frames is ever held) and writing a file. Settings per format:
 *
 * - MP4: H.264 (libx264, preset veryfast), yuv420p, BT.709 (converted so and tagged), `+faststart`
 *   (the index before the media data, so a browser plays it while downloading); AAC sound.
 * - WebM: VP9 (libvpx-vp9, realtime deadline, cpu-used 6, row multithreading), yuv420p, BT.709;
 *   Opus sound.
 * - GIF: two passes over the frames, never all of them held in memory: the first makes a palette of
 *   the whole video (palettegen), the second maps every frame to it (paletteuse; dithered with
 *   sierra2_4a unless `dither: false`; only the rectangle that changed is mapped again). Loops.
 *
 * Quality 1-100 maps linearly (see qualitySettings): x264 CRF 45 → 15 (75: 23, x264's own default;
 * 90: 18, visually lossless), VP9 CRF 55 → 15 (75: 25), GIF palette 16 → 256 colours.
 * The speed presets were measured on the 2-core CI machine (see limits.ts, maxVideoFramePixels).
 */
import type { Writable } from 'node:stream';
import type { VideoFormat } from '../types.ts';
import { type FfmpegRun, runFfmpeg } from './ffmpeg.ts';

export interface QualitySettings {
  x264Crf: number;
  vp9Crf: number;
  gifColors: number;
}

export function qualitySettings(quality: number): QualitySettings {
  const share = (Math.min(100, Math.max(1, quality)) - 1) / 99;
  return {
    x264Crf: Math.round(45 - share * 30),
    vp9Crf: Math.round(55 - share * 40),
    gifColors: Math.round(16 + share * 240),
  };
}

export interface EncodeSettings {
  format: VideoFormat;
  /** Frame size in pixels (even for MP4 and WebM). */
  width: number;
  height: number;
  fps: number;
  quality: number;
  dither: boolean;
  /** Sound inputs and the filter graph that ends in `[aout]` (MP4 and WebM), if any. */
  sound?: { inputs: string[]; filter: string };
  output: string;
}

/** How the raw frames on stdin are read. */
function rawInput(settings: Pick<EncodeSettings, 'width' | 'height' | 'fps'>): string[] {
  return [
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    '-video_size',
    `${settings.width}x${settings.height}`,
    '-framerate',
    String(settings.fps),
    '-i',
    'pipe:0',
  ];
}

const BT709 = [
  '-colorspace',
  'bt709',
  '-color_primaries',
  'bt709',
  '-color_trc',
  'bt709',
  '-color_range',
  'tv',
];
const TO_YUV = 'scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,format=yuv420p';

/** ffmpeg arguments of an MP4 or WebM encode (GIF: gifPaletteArgs and gifArgs). */
export function videoArgs(settings: EncodeSettings): string[] {
  const q = qualitySettings(settings.quality);
  const codec =
    settings.format === 'mp4'
      ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(q.x264Crf), '-profile:v', 'high']
      : [
          '-c:v',
          'libvpx-vp9',
          '-deadline',
          'realtime',
          '-cpu-used',
          '6',
          '-row-mt',
          '1',
          '-b:v',
          '0',
          '-crf',
          String(q.vp9Crf),
        ];
  const sound = settings.sound;
  const graph = sound ? `[0:v]${TO_YUV}[vout];${sound.filter}` : `[0:v]${TO_YUV}[vout]`;
  const audioCodec =
    settings.format === 'mp4' ? ['-c:a', 'aac', '-b:a', '160k'] : ['-c:a', 'libopus', '-b:a', '128k'];
  return [
    '-loglevel',
    'error',
    ...rawInput(settings),
    ...(sound?.inputs ?? []),
    '-filter_complex',
    graph,
    '-map',
    '[vout]',
    ...(sound ? ['-map', '[aout]', ...audioCodec] : []),
    ...codec,
    ...BT709,
    '-r',
    String(settings.fps),
    ...(settings.format === 'mp4' ? ['-movflags', '+faststart'] : []),
    '-f',
    settings.format,
    '-y',
    settings.output,
  ];
}

/** GIF's first pass: one palette for the whole video. */
export function gifPaletteArgs(settings: EncodeSettings, palette: string): string[] {
  const colors = qualitySettings(settings.quality).gifColors;
  return [
    '-loglevel',
    'error',
    ...rawInput(settings),
    '-vf',
    `palettegen=max_colors=${colors}:reserve_transparent=0:stats_mode=full`,
    '-f',
    'image2',
    '-y',
    palette,
  ];
}

/** GIF's second pass: every frame mapped to the palette. */
export function gifArgs(settings: EncodeSettings, palette: string): string[] {
  const dither = settings.dither ? 'sierra2_4a' : 'none';
  return [
    '-loglevel',
    'error',
    ...rawInput(settings),
    '-i',
    palette,
    '-lavfi',
    `[0:v][1:v]paletteuse=dither=${dither}:diff_mode=rectangle`,
    '-loop',
    '0',
    '-f',
    'gif',
    '-y',
    settings.output,
  ];
}

/** Frames into an ffmpeg's stdin, one write at a time, waiting whenever the pipe is full. */
export class FrameSink {
  private readonly stdin: Writable;

  constructor(private readonly run: FfmpegRun) {
    this.stdin = run.stdin as Writable;
  }

  static start(args: string[]): FrameSink {
    return new FrameSink(runFfmpeg(args, { stdin: true }));
  }

  async write(frame: Uint8Array): Promise<void> {
    if (this.stdin.write(frame)) return;
    // Full: wait for 'drain', or for ffmpeg to end (it failed, and would never drain).
    let drained = () => {};
    try {
      await new Promise<void>((resolve, reject) => {
        drained = resolve;
        this.stdin.once('drain', drained);
        this.run.done.then(
          () => reject(new Error('ffmpeg ended before its input')),
          (error: unknown) => reject(error),
        );
      });
    } finally {
      this.stdin.off('drain', drained);
    }
  }

  /** Closes the input and waits for ffmpeg to finish the file. */
  async end(): Promise<void> {
    this.stdin.end();
    await this.run.done;
  }

  /** Kills it if it still runs and waits until it has exited. */
  stop(): Promise<void> {
    return this.run.stop();
  }

  log(): string {
    return this.run.log();
  }
}
