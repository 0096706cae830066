/**
 * Preflight in the process that renders: each finding from a document that has the problem, and
 * none from the same document without it, so no check passes by saying nothing or by saying
 * everything.
 */
import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { documentOf, jobFor, pageDocument, testPhoto } from '../goldens/harness.ts';
import { renderInProcess } from '../render.ts';
import type { OutputFormat, RenderJob } from '../types.ts';
import { type PreflightAnswer, type PreflightFinding, preflightInProcess } from './index.ts';

const text = (extra: Record<string, unknown>) => ({
  id: 't1',
  type: 'text',
  x: 40,
  y: 40,
  width: 400,
  height: 80,
  text: 'Hello',
  fontSize: 32,
  color: '#111111',
  ...extra,
});

async function check(
  page: Record<string, unknown>,
  rows: Record<string, string>[] = [{}],
  format: OutputFormat = 'png',
  extra: Partial<RenderJob> = {},
): Promise<PreflightFinding[][]> {
  const job = jobFor(pageDocument({ width: 600, height: 400, ...page }), format, extra);
  const answer = await preflightInProcess(job, { rows, until: Date.now() + 60_000 });
  expect(answer.checked).toBe(rows.length);
  return answer.reports.map((report) => report.findings);
}

const codes = (findings: PreflightFinding[]) => findings.map((f) => `${f.code}:${f.elementId}`).sort();

describe('preflight', () => {
  it('finds nothing wrong with a plain, readable, fitting text', async () => {
    const [findings] = await check({ elements: [text({})] });
    expect(findings).toEqual([]);
  });

  it('names the scripts no font covers, in the given values too, and not what a fallback covers', async () => {
    const [plain, missing] = await check({ elements: [text({ text: '{{headline}}', autoFit: 'shrink' })] }, [
      { headline: 'Grüße 你好 😀 مرحبا' },
      { headline: 'สวัสดี ᎣᏏᏲ' },
    ]);
    expect(plain).toEqual([]);
    const scripts = (missing ?? []).filter((f) => f.code === 'missing-glyphs').map((f) => f.details?.script);
    expect(scripts.sort()).toEqual(['Cherokee', 'Thai']);
    const thai = missing?.find((f) => f.details?.script === 'Thai');
    expect(thai).toMatchObject({ severity: 'error', elementId: 't1', pageId: 'p1' });
    expect(thai?.details?.codePoints).toContain('U+0E2A');
  });

  it('reports overflow without auto-fit, and auto-fit that would need to go below minFontSize', async () => {
    const long = 'A sentence long enough to need many lines in a small box. '.repeat(4);
    const [findings] = await check({
      elements: [
        text({ id: 'fixed', text: long, height: 60 }),
        text({ id: 'shrunk', y: 200, text: long, height: 60, autoFit: 'shrink', minFontSize: 24 }),
        text({ id: 'fits', y: 300, text: long, height: 90, autoFit: 'shrink', minFontSize: 8 }),
      ],
    });
    expect(codes(findings ?? [])).toEqual(['text-below-min-size:shrunk', 'text-overflow:fixed']);
  });

  it('reports text that maxLines cuts', async () => {
    const [findings] = await check({
      elements: [
        text({
          text: 'one two three four five six seven eight nine ten',
          width: 120,
          height: 300,
          maxLines: 2,
        }),
      ],
    });
    expect(codes(findings ?? [])).toEqual(['text-truncated:t1']);
  });

  it('measures contrast against what is drawn beneath, shapes and groups included', async () => {
    const [findings] = await check({
      background: '#ffffff',
      elements: [
        { id: 'dark', type: 'rect', x: 0, y: 200, width: 600, height: 200, fill: '#1a1a1a' },
        text({ id: 'pale-on-white', color: '#bbbbbb' }),
        text({ id: 'dark-on-dark', y: 260, color: '#333333' }),
        text({ id: 'white-on-dark', y: 300, color: '#ffffff' }),
        {
          id: 'g',
          type: 'group',
          x: 0,
          y: 0,
          width: 600,
          height: 200,
          elements: [
            { id: 'yellow', type: 'rect', x: 300, y: 100, width: 300, height: 100, fill: '#ffee00' },
            text({ id: 'white-on-yellow', x: 320, y: 110, width: 260, height: 60, color: '#ffffff' }),
          ],
        },
      ],
    });
    const low = (findings ?? []).filter((f) => f.code === 'low-contrast');
    expect(low.map((f) => f.elementId).sort()).toEqual(['dark-on-dark', 'pale-on-white', 'white-on-yellow']);
    const pale = low.find((f) => f.elementId === 'pale-on-white');
    // #bbbbbb on white is 1.92:1 (WCAG's formula).
    expect(pale?.details?.ratio).toBeCloseTo(1.92, 1);
    expect(pale?.details?.required).toBe(3);
  });

  it('reports images that fail to load and keeps checking the rest', async () => {
    const [findings] = await check({
      elements: [
        { id: 'gone', type: 'image', x: 0, y: 0, width: 100, height: 100, src: 'asset:ast_missing' },
        text({ id: 't1' }),
      ],
    });
    expect(codes(findings ?? [])).toEqual(['image-failed:gone']);
  });

  it('reports bitmaps enlarged past their pixels, with 150 dpi as the bar for PDF', async () => {
    const photo = await testPhoto(200, 200, 'jpeg');
    const page = {
      elements: [
        { id: 'small', type: 'image', x: 0, y: 0, width: 400, height: 400, src: 'asset:ast_photo' },
        { id: 'sharp', type: 'image', x: 450, y: 0, width: 100, height: 100, src: 'asset:ast_photo' },
      ],
    };
    const assets = { ast_photo: { bytes: photo, mimeType: 'image/jpeg' } };
    const [png] = await check(page, [{}], 'png', { assets });
    expect(codes(png ?? [])).toEqual(['low-resolution:small']);
    expect(png?.[0]?.details).toMatchObject({ enlargement: 2, imageWidth: 200 });
    const [retina] = await check(page, [{}], 'png', { assets, scale: 3 });
    expect(codes(retina ?? [])).toEqual(['low-resolution:sharp', 'low-resolution:small']);
    const [pdf] = await check(page, [{}], 'pdf', { assets });
    // 200 px over 400 pt is 36 dpi; over 100 pt, 144 dpi: both under 150.
    expect((pdf ?? []).map((f) => f.details?.effectiveDpi)).toEqual([36, 144]);
  });

  it('reports elements beyond the page: text as a warning, a bleeding shape as information', async () => {
    const [findings] = await check({
      elements: [
        text({ id: 'cut', x: 500 }),
        { id: 'bleed', type: 'rect', x: -20, y: -20, width: 100, height: 100, fill: '#cccccc' },
        { id: 'away', type: 'rect', x: 700, y: 0, width: 50, height: 50, fill: '#cccccc' },
        { id: 'turned', type: 'rect', x: 520, y: 300, width: 80, height: 80, rotation: 45, fill: '#cccccc' },
      ],
    });
    const outside = (findings ?? []).filter((f) => f.code === 'outside-page');
    expect(outside.map((f) => [f.elementId, f.severity])).toEqual([
      ['cut', 'warning'],
      ['bleed', 'info'],
      ['away', 'warning'],
      ['turned', 'info'],
    ]);
  });

  it('reports a row whose values the template refuses, and checks the next', async () => {
    const [bad, good] = await check({ elements: [text({ id: 'box', name: 'box', text: 'Hi' })] }, [
      { 'box.color': 'not a colour' },
      { 'box.color': '#000000' },
    ]);
    expect(bad?.map((f) => f.code)).toEqual(['invalid-modification']);
    expect(good).toEqual([]);
  });

  it('answers through renderInProcess as one JSON file, so the pool carries it as a render', async () => {
    const job = jobFor(documentOf([{ id: 'p1', width: 200, height: 100, elements: [] }]), 'png');
    const [file] = await renderInProcess({
      ...job,
      preflight: { rows: [{}, {}], until: Date.now() + 10_000 },
    });
    expect(file?.mimeType).toBe('application/json');
    const answer = JSON.parse(new TextDecoder().decode(file?.bytes)) as PreflightAnswer;
    expect(answer).toEqual({ reports: [{ findings: [] }, { findings: [] }], checked: 2 });
  });

  it('stops at its deadline, a row waiting on an image included, and says how many rows it checked', async () => {
    // Takes the connection and never answers, not even the TLS handshake.
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const doc = pageDocument({
        width: 200,
        height: 100,
        elements: [
          { id: 'i', type: 'image', name: 'photo', x: 0, y: 0, width: 50, height: 50, src: 'asset:ast_none' },
        ],
      });
      const job = jobFor(doc, 'png', { allowPrivateUrls: true });
      const rows: Record<string, string>[] = [
        { photo: 'asset:ast_none' },
        { photo: `https://127.0.0.1:${port}/never.png` },
        {},
      ];
      const started = Date.now();
      const answer = await preflightInProcess(job, { rows, until: started + 500 });
      expect(answer.checked).toBe(1);
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await preflightInProcess(job, { rows, until: Date.now() - 1 })).checked).toBe(0);
    } finally {
      server.close();
    }
  });
});
