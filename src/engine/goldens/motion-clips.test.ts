/**
 * Video elements and sound, with clips made here by ffmpeg (lavfi testsrc pictures, sine tones):
 * a still at timeMs shows the clip's frame at that time, the very frame the video shows then
 * (decoded once for the still, streamed for the video); trimmed clips loop from their trim or hold
 * their last frame; a clip without a probe in the job is probed; a sound asset is not a picture.
 * Sound: each unmuted clip plays from its scene's start, the soundtrack from the video's, mixed
 * into AAC (MP4) or Opus (WebM) as long as the video; muted clips, silent clips and GIF add none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesignDocument } from '../../design/index.ts';
import { frameTimeMs } from '../../design/index.ts';
import { RenderError } from '../errors.ts';
import { renderInProcess } from '../render.ts';
import type { JobAsset, RenderJob } from '../types.ts';
import { runningFfmpeg } from '../video/ffmpeg.ts';
import { compareGolden, documentOf, jobFor } from './harness.ts';
import {
  ffmpeg,
  makeMedia,
  type Probe,
  probe,
  rawFrames,
  rgbaToPng,
  scratchDir,
  stillRgba,
} from './motion-harness.ts';

const scratch = scratchDir();
const assets: Record<string, JobAsset> = {};

beforeAll(async () => {
  const clip = await makeMedia(scratch.dir, 'clip.mp4', [
    ...['-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '25', '-c:a', 'aac', '-shortest'],
  ]);
  const silent = await makeMedia(scratch.dir, 'silent.webm', [
    ...['-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=20', '-t', '2'],
    ...['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-pix_fmt', 'yuv420p'],
  ]);
  const music = await makeMedia(scratch.dir, 'music.wav', [
    ...['-f', 'lavfi', '-i', 'sine=frequency=660:sample_rate=44100', '-t', '3', '-ac', '2'],
  ]);
  assets.clip = {
    bytes: clip,
    mimeType: 'video/mp4',
    media: { durationMs: 2000, width: 160, height: 90, hasVideo: true, hasAudio: true },
  };
  assets.silent = {
    bytes: silent,
    mimeType: 'video/webm',
    media: { durationMs: 2000, width: 160, height: 90, hasVideo: true, hasAudio: false },
  };
  assets.music = {
    bytes: music,
    mimeType: 'audio/wav',
    media: { durationMs: 3000, hasVideo: false, hasAudio: true },
  };
});

afterAll(() => scratch.dispose());

interface ClipPage {
  id?: string;
  src?: string;
  durationMs?: number;
  clip?: Record<string, unknown>;
}

function clipPage({ id = 'p1', src = 'asset:clip', durationMs = 1000, clip = {} }: ClipPage = {}) {
  return {
    id,
    width: 320,
    height: 180,
    durationMs,
    background: '#111827',
    elements: [
      {
        id: `${id}-video`,
        type: 'video',
        x: 40,
        y: 20,
        width: 240,
        height: 135,
        src,
        cornerRadius: 12,
        ...clip,
      },
      {
        id: `${id}-caption`,
        type: 'text',
        x: 40,
        y: 150,
        width: 240,
        height: 24,
        text: 'Clip',
        color: '#ffffff',
        fontSize: 18,
      },
    ],
  };
}

const jobOf = (doc: DesignDocument, extra: Partial<RenderJob> = {}): RenderJob =>
  jobFor(doc, 'mp4', { fps: 10, assets, ...extra });

async function render(job: RenderJob) {
  const [file] = await renderInProcess(job);
  if (!file) throw new Error('nothing rendered');
  return file;
}

const audioOf = (p: Probe) => p.streams.find((s) => s.codec_type === 'audio');

/** Root mean square of the mono 8 kHz samples of a file's sound from `fromS` for `forS` seconds. */
async function loudness(bytes: Uint8Array, ext: string, fromS: number, forS: number): Promise<number> {
  const file = `${scratch.dir}/sound-${Math.random().toString(36).slice(2)}.${ext}`;
  (await import('node:fs')).writeFileSync(file, bytes);
  const pcm = await ffmpeg([
    '-ss',
    String(fromS),
    '-t',
    String(forS),
    '-i',
    file,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '8000',
    '-f',
    's16le',
    'pipe:1',
  ]);
  let sum = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) sum += pcm.readInt16LE(i) ** 2;
  return Math.sqrt(sum / Math.max(1, pcm.length / 2));
}

describe('video elements', () => {
  it('shows the same clip frame in a still at timeMs as in the video at that time', async () => {
    const job = jobOf(documentOf([clipPage({ clip: { trimStartMs: 300 } })]));
    const { frames } = await rawFrames(job);
    expect(frames).toHaveLength(10);
    for (const [index, frame] of frames.entries()) {
      const still = await stillRgba(job, frameTimeMs(index, 10));
      expect(frame.equals(still), `frame ${index}`).toBe(true);
    }
    // The clip plays: its pictures change from frame to frame.
    expect((frames[0] as Buffer).equals(frames[5] as Buffer)).toBe(false);
    const golden = await compareGolden(
      'motion-video-element',
      await rgbaToPng(frames[5] as Buffer, 320, 180),
    );
    expect(golden.pass, golden.message).toBe(true);
  });

  it('loops a clip from its trim, or holds its last frame', async () => {
    const looped = jobOf(
      documentOf([clipPage({ durationMs: 2500, clip: { trimStartMs: 500, loop: true } })]),
      { fps: 4 },
    );
    const { frames: loop } = await rawFrames(looped);
    // t = 2000 ms: 500 + (2000 mod 1500) = 1000 ms into the clip, as at t = 500 ms.
    expect((loop[8] as Buffer).equals(loop[2] as Buffer)).toBe(true);
    expect((loop[8] as Buffer).equals(loop[6] as Buffer)).toBe(false);
    const held = jobOf(documentOf([clipPage({ durationMs: 2500, clip: { trimStartMs: 500 } })]), { fps: 4 });
    const { frames: hold } = await rawFrames(held);
    // From t = 1500 ms the clip is over: its last frame stays.
    expect((hold[8] as Buffer).equals(hold[6] as Buffer)).toBe(true);
    expect((hold[6] as Buffer).equals(hold[5] as Buffer)).toBe(false);
    expect((hold[8] as Buffer).equals(await stillRgba(held, 2000))).toBe(true);
  });

  it('probes a clip the job did not describe', async () => {
    const doc = documentOf([clipPage({ clip: { trimStartMs: 700 } })]);
    const { media: _media, ...bare } = assets.clip as JobAsset;
    const described = await stillRgba(jobOf(doc), 400);
    const probed = await stillRgba(jobOf(doc, { assets: { clip: bare } }), 400);
    expect(probed.equals(described)).toBe(true);
  });

  it('fails a render whose clip cannot be decoded, naming the element, still or video', async () => {
    const broken: JobAsset = {
      bytes: Buffer.from('not a video at all, just text pretending'),
      mimeType: 'video/mp4',
      media: { durationMs: 2000, width: 160, height: 90, hasVideo: true, hasAudio: false },
    };
    const doc = documentOf([clipPage({ src: 'asset:broken' })]);
    for (const format of ['png', 'mp4'] as const) {
      const error = await render({ ...jobOf(doc, { assets: { broken } }), format }).catch((e: unknown) => e);
      expect(error, format).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({
        details: { elementId: 'p1-video', reason: 'the video could not be decoded' },
      });
    }
    expect(runningFfmpeg()).toBe(0);
  });

  it('refuses a sound as a picture, naming the element', async () => {
    const error = await render({
      ...jobOf(documentOf([clipPage({ src: 'asset:music' })])),
      format: 'png',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect(error).toMatchObject({
      details: { elementId: 'p1-video', reason: 'asset music has no video to show' },
    });
  });
});

describe('video sound', () => {
  it('plays each unmuted clip from its scene start, in AAC for MP4 and Opus for WebM', async () => {
    // Scene one is silent (a muted clip); scene two's clip sounds from 1 s on.
    const doc = documentOf([
      clipPage({ id: 'one', clip: { muted: true } }),
      clipPage({ id: 'two', src: 'asset:clip' }),
    ]);
    const mp4 = await render(jobOf(doc));
    const mp4Info = await probe(mp4.bytes, 'mp4', scratch.dir);
    expect(audioOf(mp4Info)).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    expect(Number(audioOf(mp4Info)?.duration)).toBeCloseTo(2, 1);
    expect(await loudness(mp4.bytes, 'mp4', 0.1, 0.7)).toBeLessThan(50);
    expect(await loudness(mp4.bytes, 'mp4', 1.2, 0.6)).toBeGreaterThan(1000);
    const webm = await render({ ...jobOf(doc), format: 'webm' });
    const webmInfo = await probe(webm.bytes, 'webm', scratch.dir);
    expect(audioOf(webmInfo)).toMatchObject({ codec_name: 'opus', channels: 2 });
    expect(await loudness(webm.bytes, 'webm', 1.2, 0.6)).toBeGreaterThan(1000);
  });

  it('mixes the soundtrack, cut to the video, and adds nothing for muted or silent clips or GIF', async () => {
    const withTrack: DesignDocument = {
      ...documentOf([clipPage({ src: 'asset:silent' })]),
      audio: { src: 'asset:music', volume: 0.5 },
    };
    const mp4 = await render(jobOf(withTrack));
    const info = await probe(mp4.bytes, 'mp4', scratch.dir);
    expect(audioOf(info)).toMatchObject({ codec_name: 'aac' });
    expect(Number(audioOf(info)?.duration)).toBeCloseTo(1, 1);
    expect(await loudness(mp4.bytes, 'mp4', 0.1, 0.8)).toBeGreaterThan(1000);
    const gif = await render({ ...jobOf(withTrack), format: 'gif' });
    expect(audioOf(await probe(gif.bytes, 'gif', scratch.dir))).toBeUndefined();
    const silent = await render(
      jobOf(documentOf([clipPage({ src: 'asset:silent' }), clipPage({ id: 'two', clip: { muted: true } })])),
    );
    expect(audioOf(await probe(silent.bytes, 'mp4', scratch.dir))).toBeUndefined();
  });

  it('loops a clip’s sound with its picture', async () => {
    // 500 ms of sound from the trim, looped through a 2.5 s scene: sound all along.
    const doc = documentOf([clipPage({ durationMs: 2500, clip: { trimStartMs: 1500, loop: true } })]);
    const mp4 = await render(jobOf(doc, { fps: 4 }));
    expect(Number(audioOf(await probe(mp4.bytes, 'mp4', scratch.dir))?.duration)).toBeCloseTo(2.5, 1);
    expect(await loudness(mp4.bytes, 'mp4', 1.8, 0.5)).toBeGreaterThan(1000);
  });
});
