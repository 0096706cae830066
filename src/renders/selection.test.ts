/**
 * What makes renders identical once Motion's options exist: defaults count as given, an option a
 * format ignores does not count, every other option does, and a still's identity is the one it had
 * before Motion (so earlier renders stay free to replay).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalModifications } from '../design/index.ts';
import { renderRequestSchema } from './schemas.ts';
import { select } from './selection.ts';

const draft = { id: 'tpl_1', documentHash: 'h', pageIds: ['p1', 'p2'], activePageId: 'p1' };
const identity = (request: object, assetScope: string | null = null) =>
  select(draft, renderRequestSchema.parse(request), assetScope).identity;

describe('render identity with motion options', () => {
  it('keeps the identity a still had before Motion', () => {
    const preMotion = (assetScope: string[]) =>
      createHash('sha256')
        .update(
          JSON.stringify([
            'platen-render-v1',
            'tpl_1',
            'h',
            canonicalModifications({ a: '1' }),
            'k',
            'jpeg',
            false,
            ['p1'],
            2,
            80,
            ...assetScope,
          ]),
        )
        .digest('hex');
    const request = { format: 'jpeg', modifications: { a: '1' }, idempotencyKey: 'k', scale: 2, quality: 80 };
    expect(identity(request)).toBe(preMotion([]));
    expect(identity(request, 'user:u1')).toBe(preMotion(['user:u1']));
  });

  it('counts defaults as given and ignores what a format ignores', () => {
    expect(identity({ format: 'mp4' })).toBe(identity({ format: 'mp4', fps: 30, quality: 75 }));
    expect(identity({ format: 'gif' })).toBe(identity({ format: 'gif', fps: 15, dither: true }));
    expect(identity({ format: 'png' })).toBe(identity({ format: 'png', fps: 12, dither: false, quality: 3 }));
    expect(identity({ format: 'webm' })).toBe(identity({ format: 'webm', dither: false, timeMs: 500 }));
  });

  it('makes every option that changes the file another render', () => {
    const distinct = [
      { format: 'mp4' },
      { format: 'mp4', fps: 24 },
      { format: 'mp4', quality: 50 },
      { format: 'mp4', scale: 2 },
      { format: 'mp4', allPages: true },
      { format: 'webm' },
      { format: 'gif' },
      { format: 'gif', dither: false },
      { format: 'png' },
      { format: 'png', timeMs: 0 },
      { format: 'png', timeMs: 250 },
    ].map((request) => identity(request));
    expect(new Set(distinct).size).toBe(distinct.length);
  });

  it('selects one file for a video of every page, one a page for png', () => {
    const video = select(draft, renderRequestSchema.parse({ format: 'gif', allPages: true }), null);
    expect(video).toMatchObject({ fileCount: 1, pageIds: ['p1', 'p2'], fps: 15, dither: true, timeMs: null });
    const stills = select(
      draft,
      renderRequestSchema.parse({ format: 'png', allPages: true, timeMs: 9 }),
      null,
    );
    expect(stills).toMatchObject({ fileCount: 2, fps: 0, dither: null, timeMs: 9, quality: 0 });
  });
});
