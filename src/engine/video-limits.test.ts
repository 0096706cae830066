/**
 * What a video may cost, refused before any frame is drawn (the service's pre-charge check calls
 * the same rule): frame rate, pages of one size, length, frames × pixels (GIF lower), moving
 * effects drawn again each frame, played assets' lengths, sounds mixed, video elements per page.
 * The engine's job check refuses the same jobs with a RenderError naming the limit.
 */
import { describe, expect, it } from 'vitest';
import { type DesignDocument, parseDesignDocument } from '../design/index.ts';
import { renderCostProblem, videoCostProblem } from './cost-limits.ts';
import { RenderError } from './errors.ts';
import { renderLimits } from './limits.ts';
import { renderInProcess } from './render.ts';
import type { MediaInfo, OutputFormat } from './types.ts';

function documentOf(pages: Record<string, unknown>[], extra: Record<string, unknown> = {}): DesignDocument {
  const parsed = parseDesignDocument({ schemaVersion: 2, pages, ...extra });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.document;
}

const page = (id: string, width: number, height: number, durationMs: number, elements: unknown[] = []) => ({
  id,
  width,
  height,
  durationMs,
  elements,
});

const clipElement = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'video',
  x: 0,
  y: 0,
  width: 100,
  height: 100,
  src: `asset:${id}`,
  ...extra,
});

const problemOf = (doc: DesignDocument, format: OutputFormat, fps?: number, scale = 1) =>
  videoCostProblem(doc.pages, { format, fps, scale, audio: doc.audio });

describe('videoCostProblem', () => {
  it('takes whole frame rates of 1 to 60 (GIF 50)', () => {
    const doc = documentOf([page('p', 320, 180, 1000)]);
    for (const fps of [0, 61, 2.5, Number.NaN])
      expect(problemOf(doc, 'mp4', fps), `fps ${fps}`).toMatchObject({
        option: 'fps',
        reason: 'invalid fps',
      });
    expect(problemOf(doc, 'gif', 55)).toMatchObject({ option: 'fps', reason: 'invalid fps' });
    for (const fps of [1, 30, 60]) expect(problemOf(doc, 'mp4', fps)).toBeNull();
    expect(problemOf(doc, 'gif', 50)).toBeNull();
  });

  it('wants every page the size of the first', () => {
    const doc = documentOf([page('a', 320, 180, 1000), page('b', 320, 180, 1000), page('c', 180, 320, 1000)]);
    expect(problemOf(doc, 'webm')).toMatchObject({ pageId: 'c', reason: 'pages differ in size' });
  });

  it('bounds the length of the whole video, transitions overlapping', () => {
    const long = documentOf([page('a', 320, 180, 30_000), page('b', 320, 180, 30_500)]);
    expect(problemOf(long, 'mp4')).toMatchObject({
      pageId: 'b',
      path: ['durationMs'],
      reason: 'video too long',
    });
    expect(problemOf(long, 'mp4')?.message).toContain('the limit is 60 s');
    const overlapping = documentOf([
      { ...page('a', 320, 180, 30_000), transition: { type: 'fade', durationMs: 500 } },
      page('b', 320, 180, 30_500),
    ]);
    expect(problemOf(overlapping, 'mp4')).toBeNull();
  });

  it('bounds frames × pixels, lower for GIF, counting sides rounded up to even', () => {
    // 1080 × 1080 at 30 fps for 43 s is 1,505 megapixels; 42 s fits.
    expect(problemOf(documentOf([page('p', 1080, 1080, 43_000)]), 'mp4')).toMatchObject({
      reason: 'video too large',
    });
    expect(problemOf(documentOf([page('p', 1080, 1080, 42_000)]), 'mp4')).toBeNull();
    expect(problemOf(documentOf([page('p', 1080, 1080, 42_000)]), 'mp4', 60)?.reason).toBe('video too large');
    expect(problemOf(documentOf([page('p', 540, 540, 43_000)]), 'mp4', 30, 2)?.reason).toBe(
      'video too large',
    );
    // GIF: 480 × 480 at 15 fps: 36 s is 124 megapixels, 34 s fits.
    expect(problemOf(documentOf([page('p', 480, 480, 36_000)]), 'gif')?.reason).toBe('video too large');
    expect(problemOf(documentOf([page('p', 480, 480, 34_000)]), 'gif')).toBeNull();
    // 1079 × 1079 is encoded as 1080 × 1080.
    expect(problemOf(documentOf([page('p', 1079, 1079, 43_000)]), 'webm')?.reason).toBe('video too large');
  });

  it('weighs moving effects once per frame, static ones not at all', () => {
    const blurred = (animated: boolean) => ({
      id: 'haze',
      type: 'rect',
      x: 0,
      y: 0,
      width: 1080,
      height: 1080,
      fill: '#336699',
      blur: 20,
      shadow: { color: '#000000', blur: 20 },
      ...(animated
        ? {
            keyframes: [
              { timeMs: 0, x: 0 },
              { timeMs: 40_000, x: 100 },
            ],
          }
        : {}),
    });
    const moving = documentOf([page('p', 1080, 1080, 40_000, [blurred(true)])]);
    expect(problemOf(moving, 'mp4')).toMatchObject({ reason: 'effects too costly', path: ['elements', 0] });
    expect(problemOf(documentOf([page('p', 1080, 1080, 40_000, [blurred(false)])]), 'mp4')).toBeNull();
  });

  it('bounds the played assets’ lengths and the sounds mixed', () => {
    const media =
      (durationMs: number): ((src: string) => MediaInfo) =>
      () => ({
        durationMs,
        width: 100,
        height: 100,
        hasVideo: true,
        hasAudio: true,
      });
    const doc = documentOf([page('p', 320, 180, 1000, [clipElement('a')])], {
      audio: { src: 'asset:music' },
    });
    const tooLong = renderLimits.maxMediaMs + 1;
    expect(videoCostProblem(doc.pages, { format: 'mp4' }, media(tooLong))).toMatchObject({
      path: ['elements', 0],
      reason: 'media too long',
    });
    const onlyMusicLong = (src: string) => media(src === 'asset:music' ? tooLong : 1000)(src);
    expect(videoCostProblem(doc.pages, { format: 'mp4', audio: doc.audio }, onlyMusicLong)).toMatchObject({
      documentPath: ['audio'],
      reason: 'media too long',
    });
    const many = documentOf(
      ['a', 'b', 'c'].map((p) =>
        page(
          p,
          320,
          180,
          1000,
          Array.from({ length: 6 }, (_, i) => clipElement(`${p}${i}`)),
        ),
      ),
    );
    expect(videoCostProblem(many.pages, { format: 'mp4' }, media(1000))).toMatchObject({
      reason: 'too many sounds',
    });
    // Muted clips, silent clips and GIF mix nothing.
    const muted = (src: string) => ({ ...media(1000)(src), hasAudio: false });
    expect(videoCostProblem(many.pages, { format: 'mp4' }, muted)).toBeNull();
    expect(videoCostProblem(many.pages, { format: 'gif' }, media(1000))).toBeNull();
  });

  it('is part of renderCostProblem for video formats, with at most 8 video elements a page for any format', () => {
    const doc = documentOf([page('p', 1080, 1080, 43_000)]);
    expect(renderCostProblem(doc.pages, 'mp4', 1)?.reason).toBe('video too large');
    expect(renderCostProblem(doc.pages, 'mp4', 1, { fps: 15 })).toBeNull();
    expect(renderCostProblem(doc.pages, 'png', 1)).toBeNull();
    const crowded = documentOf([
      page(
        'p',
        320,
        180,
        1000,
        Array.from({ length: 9 }, (_, i) => clipElement(`c${i}`)),
      ),
    ]);
    expect(renderCostProblem(crowded.pages, 'png', 1)).toMatchObject({ reason: 'too many video elements' });
  });
});

describe('video jobs', () => {
  const job = (doc: DesignDocument, extra: Record<string, unknown> = {}) => ({
    document: doc,
    pageIds: doc.pages.map((p) => p.id),
    format: 'mp4' as const,
    workspaceId: 'ws',
    assets: {},
    fonts: [],
    ...extra,
  });

  it('are refused with a RenderError naming the limit', async () => {
    const small = documentOf([page('p', 320, 180, 1000)]);
    const cases: [DesignDocument, Record<string, unknown>, string, string][] = [
      [small, { fps: 61 }, 'invalid fps', 'The frame rate (fps) must be a whole number from 1 to 60.'],
      [
        documentOf([page('a', 320, 180, 1000), page('b', 100, 100, 1000)]),
        {},
        'pages differ in size',
        "Page 'b'",
      ],
      [documentOf([page('p', 320, 180, 61_000)]), {}, 'video too long', 'the limit is 60 s'],
      [documentOf([page('p', 1080, 1080, 43_000)]), {}, 'video too large', 'the limit is 1500'],
    ];
    for (const [doc, extra, reason, text] of cases) {
      const error = await renderInProcess(job(doc, extra)).catch((e: unknown) => e);
      expect(error, reason).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({ details: { reason } });
      expect((error as Error).message).toContain(text);
    }
  });
});

describe('videoCostProblem counts the work an attacker would hide', () => {
  const text = (id: string, chars: number, extra: Record<string, unknown> = {}) => ({
    id,
    type: 'text',
    x: 0,
    y: 0,
    width: 64,
    height: 64,
    text: 'x'.repeat(chars),
    ...extra,
  });

  it('refuses text laid out again on every frame past its budget, and passes a headline', () => {
    const typing = { animations: [{ preset: 'typewriter', phase: 'in', durationMs: 60_000 }] };
    const heavy = documentOf([
      page(
        'p',
        64,
        64,
        60_000,
        Array.from({ length: 20 }, (_, i) => text(`t${i}`, 10_000, typing)),
      ),
    ]);
    expect(problemOf(heavy, 'mp4', 60)).toMatchObject({ pageId: 'p', reason: 'text too costly' });
    const headline = documentOf([page('p', 1080, 1080, 10_000, [text('h', 40, typing)])]);
    expect(problemOf(headline, 'mp4', 30)).toBeNull();
  });

  it('grows moving effects by the largest scale keyframes give', () => {
    const shadowed = (scale: number) =>
      documentOf([
        page(
          'p',
          1080,
          1080,
          40_000,
          Array.from({ length: 200 }, (_, i) => ({
            id: `r${i}`,
            type: 'rect',
            x: 535,
            y: 535,
            width: 10.8,
            height: 10.8,
            shadow: { color: '#000000', blur: 0 },
            keyframes: [
              { timeMs: 0, x: 535, scale },
              { timeMs: 40_000, x: 545, scale },
            ],
          })),
        ),
      ]);
    expect(problemOf(shadowed(1), 'mp4', 30)).toBeNull();
    expect(problemOf(shadowed(100), 'mp4', 30)).toMatchObject({ reason: 'effects too costly' });
  });

  it('refuses a loop shorter than half a second and a trim past the clip', () => {
    const info: MediaInfo = { durationMs: 3000, width: 64, height: 64, hasVideo: true, hasAudio: false };
    const media = () => info;
    const withClip = (extra: Record<string, unknown>) =>
      videoCostProblem(
        documentOf([page('p', 64, 64, 2000, [clipElement('c', extra)])]).pages,
        { format: 'mp4' },
        media,
      );
    expect(withClip({ loop: true, trimStartMs: 2999 })).toMatchObject({
      reason: 'loop too short',
      path: ['elements', 0],
    });
    expect(withClip({ trimStartMs: 3000 })).toMatchObject({ reason: 'trim past the end' });
    expect(withClip({ loop: true, trimStartMs: 2000 })).toBeNull();
  });

  it('counts the clips decoded beside the frames encoded', () => {
    const big: MediaInfo = { durationMs: 60_000, width: 4096, height: 4096, hasVideo: true, hasAudio: false };
    const clips = Array.from({ length: 8 }, (_, i) => clipElement(`c${i}`));
    const pages = documentOf([page('p', 640, 640, 60_000, clips)]).pages;
    expect(videoCostProblem(pages, { format: 'mp4', fps: 30 }, () => big)).toMatchObject({
      reason: 'video too large',
    });
    expect(
      videoCostProblem(
        pages.map((p) => ({ ...p, elements: [] })),
        { format: 'mp4', fps: 30 },
        () => big,
      ),
    ).toBeNull();
  });
});
