/**
 * Video and audio uploads (motion): a file whose bytes sniff as MP4, WebM, MP3 or WAV is probed
 * with ffprobe before it is accepted, from its headers only (`-nofind_stream_info`: no frame is
 * decoded, so a file declaring a 60000-pixel picture costs what its header costs), and refused
 * with 400 when it breaks a limit: picture size, length, no playable stream, or headers ffprobe
 * cannot read. Its kind follows its streams: any picture makes it a video; sound alone, audio
 * (an MP4 or WebM without a picture is an audio asset, an MP3's cover art is no picture).
 */
import { AppError } from '../core/errors.ts';
import type { MediaInfo } from '../engine/index.ts';
import { type ProbeOptions, probeBytes } from './ffprobe.ts';
import type { MediaContainer } from './sniff.ts';

export interface MediaLimits {
  /** Bytes of one video or audio upload (images and fonts keep PLATEN_MAX_ASSET_BYTES). */
  maxBytes: number;
  maxVideoDurationMs: number;
  maxAudioDurationMs: number;
  /** Pixels a side of a video's picture, as displayed (so ≤ maxSide² pixels a frame). */
  maxSide: number;
  probeTimeoutMs: number;
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = {
  maxBytes: 100 * 1024 * 1024,
  // A scene lasts at most five minutes (design/motion.ts); a clip longer than that never plays whole.
  maxVideoDurationMs: 5 * 60_000,
  maxAudioDurationMs: 10 * 60_000,
  // 4K (DCI 4096×2160, UHD 3840×2160) either way up; at most 16.8 megapixels a frame.
  maxSide: 4096,
  probeTimeoutMs: 10_000,
};

/** What ffprobe prints about a sane file is a few kilobytes; thousands of streams are not one. */
const MAX_PROBE_OUTPUT_BYTES = 256 * 1024;

export interface InspectedMedia {
  kind: 'video' | 'audio';
  mimeType: string;
  extension: string;
  media: MediaInfo;
}

/** The ffprobe demuxer each sniffed container is read with (never ffprobe's own guess). */
const DEMUXERS: Record<MediaContainer, string> = { mp4: 'mov', webm: 'matroska', mp3: 'mp3', wav: 'wav' };

const TYPES: Record<MediaContainer, Record<'video' | 'audio', { mimeType: string; extension: string }>> = {
  mp4: {
    video: { mimeType: 'video/mp4', extension: 'mp4' },
    audio: { mimeType: 'audio/mp4', extension: 'm4a' },
  },
  webm: {
    video: { mimeType: 'video/webm', extension: 'webm' },
    audio: { mimeType: 'audio/webm', extension: 'webm' },
  },
  mp3: {
    video: { mimeType: 'audio/mpeg', extension: 'mp3' },
    audio: { mimeType: 'audio/mpeg', extension: 'mp3' },
  },
  wav: {
    video: { mimeType: 'audio/wav', extension: 'wav' },
    audio: { mimeType: 'audio/wav', extension: 'wav' },
  },
};

export function probeArgs(container: MediaContainer): string[] {
  return [
    '-v',
    'error',
    // Headers only: no stream is decoded to fill in what they leave out.
    '-nofind_stream_info',
    '-protocol_whitelist',
    'file',
    '-f',
    DEMUXERS[container],
    '-show_entries',
    'format=duration:stream=codec_type,codec_name,width,height,duration' +
      ':stream_disposition=attached_pic:stream_side_data=rotation:stream_tags=rotate',
    '-of',
    'json',
  ];
}

/** One stream as ffprobe prints it (every field may be missing or a string). */
interface ProbedStream {
  codec_type?: unknown;
  codec_name?: unknown;
  width?: unknown;
  height?: unknown;
  duration?: unknown;
  disposition?: { attached_pic?: unknown };
  tags?: { rotate?: unknown };
  side_data_list?: Array<{ rotation?: unknown }>;
}

interface ProbedFile {
  streams?: ProbedStream[];
  format?: { duration?: unknown };
}

const refuse = (message: string, detail: string) =>
  new AppError('VALIDATION_FAILED', message, [{ path: 'body', message: detail }]);

const undecodable = (detail: string) =>
  refuse('The video or audio file could not be read: it is damaged or not what it claims to be.', detail);

const positive = (value: unknown): number | null => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
};

/** Quarter turns a player applies (a phone's portrait video is stored sideways). */
function turnedSideways(stream: ProbedStream): boolean {
  const rotations = [stream.tags?.rotate, ...(stream.side_data_list ?? []).map((s) => s.rotation)];
  return rotations.some((r) => {
    const degrees = Number(r);
    return Number.isFinite(degrees) && Math.abs(Math.round(degrees)) % 180 === 90;
  });
}

/** Reads ffprobe's JSON into a MediaInfo and the asset's kind, enforcing `limits`. */
export function mediaFromProbe(
  json: string,
  limits: MediaLimits,
): { kind: 'video' | 'audio'; media: MediaInfo } {
  let probed: ProbedFile;
  try {
    probed = JSON.parse(json) as ProbedFile;
  } catch {
    throw undecodable('ffprobe could not describe the file');
  }
  const streams = Array.isArray(probed.streams) ? probed.streams : [];
  // An embedded cover picture (MP3, M4A) is artwork, not a video: it never plays.
  const pictures = streams.filter(
    (s) => s.codec_type === 'video' && Number(s.disposition?.attached_pic) !== 1,
  );
  const sounds = streams.filter((s) => s.codec_type === 'audio');
  if (pictures.length === 0 && sounds.length === 0) throw undecodable('no video or audio stream');
  for (const stream of [...pictures, ...sounds]) {
    if (typeof stream.codec_name !== 'string' || stream.codec_name === '')
      throw undecodable(`a ${String(stream.codec_type)} stream has a codec ffprobe does not know`);
  }
  // Every picture stream is bounded, not only the first: a decoder may be handed any of them.
  let size: { width: number; height: number } | undefined;
  for (const stream of pictures) {
    const width = positive(stream.width);
    const height = positive(stream.height);
    if (width === null || height === null) throw undecodable('the picture size of a video stream is missing');
    if (width > limits.maxSide || height > limits.maxSide) {
      throw refuse(
        `The video's picture is too large: at most ${limits.maxSide} pixels a side.`,
        `${width}×${height} pixels; the limit is ${limits.maxSide}×${limits.maxSide}`,
      );
    }
    size ??= turnedSideways(stream) ? { width: height, height: width } : { width, height };
  }
  const kind = pictures.length > 0 ? 'video' : 'audio';
  // WebM keeps the length in its header; MP4, MP3 and WAV per stream (without the decoding pass
  // ffprobe would otherwise take to compute the file's).
  const seconds =
    positive(probed.format?.duration) ??
    Math.max(0, ...[...pictures, ...sounds].map((s) => positive(s.duration) ?? 0));
  if (!seconds) {
    throw undecodable(
      'the length is not in the headers (a recording that was never finished?); remux it, e.g. ffmpeg -i in -c copy out',
    );
  }
  const durationMs = Math.round(seconds * 1000);
  const maxMs = kind === 'video' ? limits.maxVideoDurationMs : limits.maxAudioDurationMs;
  if (durationMs > maxMs) {
    throw refuse(
      `The ${kind} is too long: at most ${formatDuration(maxMs)}.`,
      `${formatDuration(durationMs)} long; the limit for ${kind} is ${formatDuration(maxMs)}`,
    );
  }
  return {
    kind,
    media: { durationMs, ...(size ?? {}), hasVideo: pictures.length > 0, hasAudio: sounds.length > 0 },
  };
}

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round((seconds - minutes * 60) * 10) / 10;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/** Probes the sniffed media file and checks it against `limits`; AppErrors for the client's faults. */
export async function inspectMedia(
  bytes: Uint8Array,
  container: MediaContainer,
  limits: MediaLimits,
  probe: Pick<ProbeOptions, 'program'> = {},
): Promise<InspectedMedia> {
  const run = await probeBytes(bytes, probeArgs(container), {
    ...probe,
    timeoutMs: limits.probeTimeoutMs,
    maxOutputBytes: MAX_PROBE_OUTPUT_BYTES,
  });
  if (run.timedOut) throw undecodable(`reading the headers took over ${limits.probeTimeoutMs} ms`);
  if (run.overflowed) throw undecodable('the headers describe too many streams');
  if (run.code !== 0) throw undecodable(lastLine(run.stderr) || 'ffprobe could not read the file');
  const { kind, media } = mediaFromProbe(run.stdout, limits);
  return { kind, ...TYPES[container][kind], media };
}

/** ffprobe's own reason, without the temporary path it names. */
function lastLine(stderr: string): string {
  const line = stderr.trim().split('\n').pop() ?? '';
  return line
    .replace(/file:\S+?: /g, '')
    .replace(/^\[[^\]]*\]\s*/, '')
    .slice(0, 200);
}
