/**
 * Media uploads probed by the real ffprobe on files the real ffmpeg made: what each container
 * becomes (kind, type, length, picture, streams), and each limit refused with 400 naming it.
 */
import { describe, expect, it } from 'vitest';
import { BOMB_SIDE, media, mp4Bomb, silentWav } from '../../test/fixtures/media.ts';
import { AppError } from '../core/errors.ts';
import { DEFAULT_MEDIA_LIMITS, inspectMedia, mediaFromProbe } from './media.ts';
import { sniff } from './sniff.ts';

const limits = DEFAULT_MEDIA_LIMITS;

async function inspect(bytes: Buffer) {
  const sniffed = await sniff(bytes);
  if (sniffed?.kind !== 'media') throw new Error(`not sniffed as media: ${JSON.stringify(sniffed)}`);
  return inspectMedia(bytes, sniffed.container, limits);
}

async function refusal(work: Promise<unknown>): Promise<{ code: string; status: number; text: string }> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return {
    code: error.code,
    status: error.status,
    text: `${error.message} ${JSON.stringify(error.details)}`,
  };
}

describe('inspectMedia', () => {
  it.each([
    ['mp4', 'video', 'video/mp4', 'mp4', true, true],
    ['silentMp4', 'video', 'video/mp4', 'mp4', true, false],
    ['webm', 'video', 'video/webm', 'webm', true, true],
    ['mp3', 'audio', 'audio/mpeg', 'mp3', false, true],
    ['m4a', 'audio', 'audio/mp4', 'm4a', false, true],
    ['audioMp4', 'audio', 'audio/mp4', 'm4a', false, true],
    ['wav', 'audio', 'audio/wav', 'wav', false, true],
  ] as const)('reads %s as %s (%s)', async (fixture, kind, mimeType, extension, hasVideo, hasAudio) => {
    const found = await inspect(await media(fixture));
    expect(found).toMatchObject({ kind, mimeType, extension, media: { hasVideo, hasAudio } });
    // One second, give or take an encoder's frame of padding.
    expect(found.media.durationMs).toBeGreaterThanOrEqual(990);
    expect(found.media.durationMs).toBeLessThanOrEqual(1100);
    if (hasVideo) expect([found.media.width, found.media.height]).toEqual([160, 90]);
    else expect(found.media.width).toBeUndefined();
  });

  it('refuses an MP4 bomb from its headers, naming the limit', async () => {
    const error = await refusal(inspect(await mp4Bomb()));
    expect([error.status, error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(error.text).toContain(`${BOMB_SIDE}×${BOMB_SIDE}`);
    expect(error.text).toContain(`at most ${limits.maxSide} pixels a side`);
  });

  it('refuses a video longer than the video limit and audio longer than the audio limit', async () => {
    const video = await refusal(inspect(await media('longMp4')));
    expect([video.status, video.text]).toEqual([400, expect.stringContaining('at most 5 min')]);
    const audio = await refusal(inspect(silentWav(601)));
    expect([audio.status, audio.text]).toEqual([400, expect.stringContaining('at most 10 min')]);
    // The same ten minutes and a second fits the audio limit when it is raised.
    const sniffed = await sniff(silentWav(601));
    if (sniffed?.kind !== 'media') throw new Error('WAV not sniffed');
    const fits = await inspectMedia(silentWav(601), sniffed.container, {
      ...limits,
      maxAudioDurationMs: 700_000,
    });
    expect(fits.media.durationMs).toBe(601_000);
  });

  it('refuses damaged media with 400, never a crash', async () => {
    const mp4 = await media('mp4');
    const truncated = await refusal(inspect(mp4.subarray(0, 64)));
    expect([truncated.status, truncated.code]).toEqual([400, 'VALIDATION_FAILED']);
    // The MP4 signature followed by random bytes: sniffed as MP4, unreadable to ffprobe.
    const junk = Buffer.concat([
      mp4.subarray(0, 32),
      Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251)),
    ]);
    const garbage = await refusal(inspect(junk));
    expect(garbage.status).toBe(400);
    // ffprobe's reason comes back without the temporary file's path.
    expect(garbage.text).not.toMatch(/platen-probe|tmp/);
  });
});

describe('mediaFromProbe', () => {
  const probe = (streams: object[], format: object = {}) => JSON.stringify({ streams, format });

  it('takes an MP3 cover picture for artwork, not a video', () => {
    const found = mediaFromProbe(
      probe([
        { codec_type: 'audio', codec_name: 'mp3', duration: '2.5' },
        {
          codec_type: 'video',
          codec_name: 'mjpeg',
          width: 9000,
          height: 9000,
          disposition: { attached_pic: 1 },
        },
      ]),
      limits,
    );
    expect(found).toEqual({ kind: 'audio', media: { durationMs: 2500, hasVideo: false, hasAudio: true } });
  });

  it("gives a phone's sideways video its upright size", () => {
    const found = mediaFromProbe(
      probe(
        [
          {
            codec_type: 'video',
            codec_name: 'h264',
            width: 1920,
            height: 1080,
            side_data_list: [{ rotation: -90 }],
          },
        ],
        { duration: '3' },
      ),
      limits,
    );
    expect(found.media).toMatchObject({ width: 1080, height: 1920, durationMs: 3000 });
  });

  it('bounds every picture stream, not only the first', () => {
    expect(() =>
      mediaFromProbe(
        probe([
          { codec_type: 'video', codec_name: 'h264', width: 160, height: 90, duration: '1' },
          { codec_type: 'video', codec_name: 'h264', width: 160, height: 5000, duration: '1' },
        ]),
        limits,
      ),
    ).toThrow(/too large/);
  });

  it.each([
    ['no streams', probe([], { duration: '1' }), /no video or audio stream/],
    ['no length', probe([{ codec_type: 'audio', codec_name: 'opus' }]), /length is not in the headers/],
    ['an unknown codec', probe([{ codec_type: 'audio', duration: '1' }]), /codec ffprobe does not know/],
    ['no picture size', probe([{ codec_type: 'video', codec_name: 'vp9', duration: '1' }]), /picture size/],
    ['not JSON', 'nope', /could not describe/],
  ])('refuses %s', (_name, json, reason) => {
    let thrown: unknown;
    try {
      mediaFromProbe(json, limits);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).status).toBe(400);
    expect(JSON.stringify((thrown as AppError).details)).toMatch(reason);
  });
});
