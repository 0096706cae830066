/**
 * MP4, WebM and GIF as ffprobe reads them: codec (H.264 yuv420p, VP9, GIF), size (odd sides
 * rounded up to even for yuv420p), frame rate, length, frame count, MP4's index before its media
 * (`+faststart`), BT.709 tags, no sound stream when nothing plays. Decoded frames (chosen by index)
 * match the raw frame golden within each codec's loss, and match it better than a neighbouring
 * frame does; quality and dithering change the output as documented.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { DesignDocument } from '../../design/index.ts';
import { renderInProcess } from '../render.ts';
import type { RenderJob, VideoFormat } from '../types.ts';
import { compareGolden, documentOf, jobFor } from './harness.ts';
import {
  decodeFrame,
  mp4Boxes,
  type Probe,
  probe,
  psnr,
  rawFrames,
  rgbaToPng,
  scratchDir,
} from './motion-harness.ts';

const scratch = scratchDir();
afterAll(() => scratch.dispose());

function slideDocument(width = 320, height = 180): DesignDocument {
  return documentOf([
    {
      id: 'p1',
      width,
      height,
      durationMs: 1000,
      background: {
        type: 'linear',
        angle: 90,
        stops: [
          { offset: 0, color: '#0ea5e9' },
          { offset: 1, color: '#1e1b4b' },
        ],
      },
      elements: [
        {
          id: 'headline',
          type: 'text',
          x: 20,
          y: 50,
          width: width - 40,
          height: 50,
          text: 'Motion',
          color: '#ffffff',
          fontSize: 36,
          fontWeight: 700,
          animations: [{ preset: 'slide-right', phase: 'in', durationMs: 800, easing: 'linear' }],
        },
        {
          id: 'bar',
          type: 'rect',
          x: 20,
          y: 120,
          width: 40,
          height: 20,
          fill: '#facc15',
          keyframes: [
            { timeMs: 0, x: 20, easing: 'linear' },
            { timeMs: 1000, x: width - 60, easing: 'linear' },
          ],
        },
      ],
    },
  ]);
}

async function render(job: RenderJob) {
  const [file] = await renderInProcess(job);
  if (!file) throw new Error('nothing rendered');
  return file;
}

const video = (p: Probe) => p.streams.find((s) => s.codec_type === 'video') ?? {};
const audio = (p: Probe) => p.streams.find((s) => s.codec_type === 'audio');

describe('video formats', () => {
  it('writes MP4 as H.264 yuv420p, BT.709, faststart, with its frames and length', async () => {
    const file = await render(jobFor(slideDocument(), 'mp4', { fps: 10 }));
    expect(file).toMatchObject({
      mimeType: 'video/mp4',
      width: 320,
      height: 180,
      durationMs: 1000,
      frames: 10,
    });
    const info = await probe(file.bytes, 'mp4', scratch.dir);
    expect(video(info)).toMatchObject({
      codec_name: 'h264',
      pix_fmt: 'yuv420p',
      width: 320,
      height: 180,
      r_frame_rate: '10/1',
      nb_read_frames: '10',
      color_space: 'bt709',
      color_primaries: 'bt709',
      color_transfer: 'bt709',
    });
    expect(Number(video(info).duration)).toBeCloseTo(1, 2);
    expect(audio(info)).toBeUndefined();
    const boxes = mp4Boxes(file.bytes).map((box) => box.type);
    expect(boxes).toContain('moov');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('writes WebM as VP9 yuv420p with its frames and length', async () => {
    const file = await render(jobFor(slideDocument(), 'webm', { fps: 10 }));
    expect(file).toMatchObject({ mimeType: 'video/webm', width: 320, height: 180, frames: 10 });
    const info = await probe(file.bytes, 'webm', scratch.dir);
    expect(video(info)).toMatchObject({
      codec_name: 'vp9',
      pix_fmt: 'yuv420p',
      width: 320,
      height: 180,
      r_frame_rate: '10/1',
      nb_read_frames: '10',
    });
    expect(Number(info.format.duration)).toBeCloseTo(1, 1);
    expect(audio(info)).toBeUndefined();
  });

  it('writes GIF at 15 fps by default, looping, with its frames and length', async () => {
    const file = await render(jobFor(slideDocument(), 'gif'));
    expect(file).toMatchObject({
      mimeType: 'image/gif',
      width: 320,
      height: 180,
      frames: 15,
      durationMs: 1000,
    });
    const info = await probe(file.bytes, 'gif', scratch.dir);
    expect(video(info)).toMatchObject({ codec_name: 'gif', width: 320, height: 180, nb_read_frames: '15' });
    // GIF delays are hundredths of a second: 1/15 s is written as 7 and 6 in turn.
    expect(Number(info.format.duration)).toBeGreaterThan(0.95);
    expect(Number(info.format.duration)).toBeLessThan(1.05);
    expect(Buffer.from(file.bytes).includes(Buffer.from('NETSCAPE2.0'))).toBe(true);
  });

  it('decodes to the raw frames: the golden within each codec’s loss, closer than a neighbour', async () => {
    const job = jobFor(slideDocument(), 'mp4', { fps: 10 });
    const { frames } = await rawFrames(job);
    const raw = frames[5] as Buffer;
    const golden = await compareGolden('motion-formats-500ms', await rgbaToPng(raw, 320, 180));
    expect(golden.pass, golden.message).toBe(true);
    const floors: Record<VideoFormat, number> = { mp4: 34, webm: 34, gif: 40 };
    for (const format of ['mp4', 'webm', 'gif'] as const) {
      const file = await render({ ...job, format, quality: 90 });
      const decoded = await decodeFrame(file.bytes, format, 5, scratch.dir);
      const right = psnr(decoded, raw);
      expect(right, `${format} frame 5`).toBeGreaterThan(floors[format]);
      expect(right, `${format}: frame 5 matches frame 4 better`).toBeGreaterThan(
        psnr(decoded, frames[4] as Buffer) + 10,
      );
      expect(right, `${format}: frame 5 matches frame 6 better`).toBeGreaterThan(
        psnr(decoded, frames[6] as Buffer) + 10,
      );
    }
  });

  it('rounds odd sides up to even for MP4 and WebM by repeating the last column and row', async () => {
    const job = jobFor(slideDocument(161, 91), 'mp4', { fps: 5 });
    const file = await render(job);
    expect([file.width, file.height]).toEqual([162, 92]);
    const info = await probe(file.bytes, 'mp4', scratch.dir);
    expect(video(info)).toMatchObject({ width: 162, height: 92 });
    const { frames, width, height } = await rawFrames(job);
    expect([width, height]).toEqual([162, 92]);
    const frame = frames[2] as Buffer;
    const pixel = (x: number, y: number) => frame.readUInt32BE((y * width + x) * 4);
    for (let y = 0; y < height; y++) expect(pixel(161, y)).toBe(pixel(160, y));
    for (let x = 0; x < width; x++) expect(pixel(x, 91)).toBe(pixel(x, 90));
    const gif = await render({ ...job, format: 'gif' });
    expect([gif.width, gif.height]).toEqual([161, 91]);
  });

  it('maps quality to the encoder: lower quality, smaller files; GIF dithering on by default', async () => {
    const job = jobFor(slideDocument(), 'mp4', { fps: 10 });
    for (const format of ['mp4', 'webm'] as const) {
      const low = await render({ ...job, format, quality: 10 });
      const high = await render({ ...job, format, quality: 100 });
      expect(low.bytes.byteLength, format).toBeLessThan(high.bytes.byteLength);
    }
    const fewColours = await render({ ...job, format: 'gif', quality: 1 });
    const manyColours = await render({ ...job, format: 'gif', quality: 100 });
    expect(fewColours.bytes.byteLength).toBeLessThan(manyColours.bytes.byteLength);
    const dithered = await render({ ...job, format: 'gif' });
    const flat = await render({ ...job, format: 'gif', dither: false });
    expect(Buffer.from(dithered.bytes).equals(Buffer.from(flat.bytes))).toBe(false);
  });
});
