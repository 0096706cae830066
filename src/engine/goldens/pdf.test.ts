/**
 * Multi-page PDF, checked with poppler: one page per design page at its size in points, fonts
 * embedded as subsets, the text extractable, and page 1 rasterised by pdftoppm matching the PNG
 * render within the golden threshold. Skipped, with the reason, when poppler-utils is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { renderInProcess } from '../render.ts';
import { compareGolden, documentOf, jobFor, MAX_DIFF_RATIO, PIXEL_THRESHOLD, testPhoto } from './harness.ts';

const POPPLER = existsSync('/usr/bin/pdfinfo') && existsSync('/usr/bin/pdftoppm');
const reason = 'poppler-utils is not installed (apt-get install poppler-utils)';

async function pdfDocument() {
  const photo = `data:image/jpeg;base64,${(await testPhoto(240, 160, 'jpeg')).toString('base64')}`;
  return documentOf([
    {
      id: 'cover',
      width: 400,
      height: 300,
      background: '#fff7ed',
      elements: [
        { id: 'photo', type: 'image', x: 20, y: 20, width: 160, height: 120, src: photo, cornerRadius: 16 },
        {
          id: 'title',
          type: 'text',
          x: 200,
          y: 20,
          width: 180,
          height: 80,
          text: 'Quarterly report',
          fontFamily: 'Montserrat',
          fontWeight: 700,
          fontSize: 26,
          color: '#7c2d12',
        },
        {
          id: 'body',
          type: 'text',
          x: 20,
          y: 160,
          width: 360,
          height: 60,
          text: 'Selectable text with embedded font subsets.',
          fontFamily: 'Open Sans',
          fontSize: 16,
        },
        { id: 'bar', type: 'rect', x: 20, y: 240, width: 360, height: 40, fill: '#fb923c', cornerRadius: 8 },
        {
          id: 'logo',
          type: 'svg',
          x: 330,
          y: 110,
          width: 50,
          height: 50,
          svg: "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><circle cx='5' cy='5' r='5' fill='#9a3412'/></svg>",
        },
      ],
    },
    {
      id: 'second',
      width: 300,
      height: 500,
      background: '#ffffff',
      elements: [
        { id: 'p2', type: 'text', x: 20, y: 20, width: 260, height: 40, text: 'Page two', fontSize: 24 },
      ],
    },
    {
      id: 'third',
      width: 200,
      height: 200,
      background: '#1e293b',
      elements: [{ id: 'p3', type: 'qr', x: 20, y: 20, width: 160, height: 160, value: 'page three' }],
    },
  ]);
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8' });
}

describe.skipIf(!POPPLER)(`PDF output (poppler checks${POPPLER ? '' : `: skipped, ${reason}`})`, () => {
  it('writes one page per design page with embedded fonts, real text and matching pixels', async () => {
    const doc = await pdfDocument();
    const [pdf] = await renderInProcess(jobFor(doc, 'pdf'));
    expect(pdf).toMatchObject({
      mimeType: 'application/pdf',
      width: 400,
      height: 300,
      pageIds: ['cover', 'second', 'third'],
    });
    const dir = mkdtempSync(join(tmpdir(), 'platen-pdf-'));
    const path = join(dir, 'out.pdf');
    writeFileSync(path, pdf?.bytes ?? new Uint8Array());

    const info = run('pdfinfo', ['-f', '1', '-l', '3', path]);
    expect(info).toMatch(/Pages:\s+3/);
    expect(info).toMatch(/Page\s+1 size:\s+400 x 300 pts/);
    expect(info).toMatch(/Page\s+2 size:\s+300 x 500 pts/);
    expect(info).toMatch(/Page\s+3 size:\s+200 x 200 pts/);

    const fonts = run('pdffonts', [path]);
    expect(fonts).toMatch(/Montserrat-Bold\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/OpenSans-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/);

    const text = run('pdftotext', ['-layout', path, '-']);
    expect(text).toMatch(/Quarterly\s+report/);
    expect(text).toContain('Selectable text with embedded font subsets.');
    expect(text).toContain('Page two');

    run('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-png', '-singlefile', path, join(dir, 'page1')]);
    const fromPdf = PNG.sync.read(readFileSync(join(dir, 'page1.png')));
    const [png] = await renderInProcess({ ...jobFor(doc, 'png'), pageIds: ['cover'] });
    const direct = PNG.sync.read(Buffer.from(png?.bytes ?? new Uint8Array()));
    expect([fromPdf.width, fromPdf.height]).toEqual([direct.width, direct.height]);
    const diff = pixelmatch(fromPdf.data, direct.data, undefined, direct.width, direct.height, {
      threshold: PIXEL_THRESHOLD,
    });
    // Poppler anti-aliases text and edges differently from Skia: allow 5x the golden ratio.
    expect(diff).toBeLessThanOrEqual(direct.width * direct.height * MAX_DIFF_RATIO * 5);

    // Every page as poppler draws it, against goldens (pdftoppm output of an earlier run).
    run('pdftoppm', ['-r', '72', '-png', path, join(dir, 'all')]);
    for (const n of [1, 2, 3]) {
      const result = await compareGolden(`pdf-page-${n}`, readFileSync(join(dir, `all-${n}.png`)));
      expect(result.message).toBe(result.pass ? result.message : 'match');
    }
  });

  it('keeps shapes vector: the page content holds path operators, not one big image', async () => {
    const doc = documentOf([
      {
        id: 'only',
        width: 300,
        height: 200,
        elements: [
          { id: 'r', type: 'rect', x: 10, y: 10, width: 100, height: 50, fill: '#ff0000', cornerRadius: 10 },
        ],
      },
    ]);
    const [pdf] = await renderInProcess(jobFor(doc, 'pdf'));
    const dir = mkdtempSync(join(tmpdir(), 'platen-pdf-'));
    const path = join(dir, 'shape.pdf');
    writeFileSync(path, pdf?.bytes ?? new Uint8Array());
    expect(run('pdfimages', ['-list', path]).trim().split('\n')).toHaveLength(2);
  });
});
