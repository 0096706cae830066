/**
 * JPEG photos in PDFs: a source drawn at up to twice its size is embedded byte for byte (never
 * re-encoded), a larger one is downscaled once and that encoding reused by the next render (the
 * cache counts it), a PNG stays with Skia, and poppler reads the rewritten file without a
 * complaint, its text and subset fonts intact. Skipped, with the reason, without poppler-utils.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheStats } from '../backends/lru.ts';
import { renderInProcess } from '../render.ts';
import { documentOf, jobFor, testPhoto } from './harness.ts';

const POPPLER = existsSync('/usr/bin/pdfimages') && existsSync('/usr/bin/pdftoppm');
const reason = 'poppler-utils is not installed (apt-get install poppler-utils)';

const dataUri = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString('base64')}`;

async function pdfOf(elements: object[]): Promise<Buffer> {
  const document = documentOf([{ id: 'p', width: 400, height: 300, background: '#ffffff', elements }]);
  const [file] = await renderInProcess(jobFor(document, 'pdf'));
  if (!file) throw new Error('no file');
  return Buffer.from(file.bytes);
}

function poppler(pdf: Buffer): { images: string[]; text: string; fonts: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'platen-pdfimg-'));
  const path = join(dir, 'out.pdf');
  writeFileSync(path, pdf);
  const rows = execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' }).split('\n').slice(2);
  const raster = spawnSync('pdftoppm', ['-r', '30', '-png', path, join(dir, 'page')], { encoding: 'utf8' });
  return {
    images: rows.filter(Boolean).map((row) => row.trim().split(/\s+/).slice(3, 9).join(' ')),
    text: execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }),
    fonts: execFileSync('pdffonts', [path], { encoding: 'utf8' }),
    stderr: raster.stderr,
  };
}

const hits = () => cacheStats().find((c) => c.name === 'pdf-images')?.hits ?? 0;

describe.skipIf(!POPPLER)(`JPEG images in PDFs${POPPLER ? '' : ` (skipped: ${reason})`}`, () => {
  it('embeds a JPEG source unchanged when it is drawn at up to twice its size', async () => {
    const jpeg = await testPhoto(300, 200, 'jpeg');
    const pdf = await pdfOf([
      {
        id: 'a',
        type: 'image',
        x: 10,
        y: 10,
        width: 300,
        height: 200,
        src: dataUri(jpeg, 'image/jpeg'),
        cornerRadius: 12,
      },
      {
        id: 't',
        type: 'text',
        x: 10,
        y: 230,
        width: 380,
        height: 50,
        text: 'Selectable caption',
        fontSize: 24,
      },
    ]);
    expect(pdf.includes(jpeg)).toBe(true);
    const seen = poppler(pdf);
    expect(seen.stderr).toBe('');
    // width height colour-space components bits encoding
    expect(seen.images).toEqual(['300 200 icc 3 8 jpeg']);
    expect(seen.text).toContain('Selectable caption');
    expect(seen.fonts).toMatch(/\+Inter-Regular\s+CID TrueType\s+Identity-H\s+yes yes/);
  });

  it('downscales a much larger JPEG once, and reuses that encoding in the next render', async () => {
    const jpeg = await testPhoto(1600, 1200, 'jpeg');
    const elements = [
      { id: 'a', type: 'image', x: 0, y: 0, width: 160, height: 120, src: dataUri(jpeg, 'image/jpeg') },
    ];
    const first = await pdfOf(elements);
    const before = hits();
    const second = await pdfOf(elements);
    expect(hits()).toBe(before + 1);
    expect(second.equals(first)).toBe(true);
    expect(first.includes(jpeg)).toBe(false);
    // Drawn at 160×120 points, embedded at the PDF raster scale (2×): 320×240.
    const seen = poppler(first);
    expect(seen.stderr).toBe('');
    expect(seen.images.map((row) => row.split(' ').slice(0, 2).join('x'))).toEqual(['320x240']);
    expect(seen.images[0]).toMatch(/jpeg$/);
  });

  it('leaves a PNG to Skia', async () => {
    const png = await testPhoto(120, 80, 'png');
    const pdf = await pdfOf([
      { id: 'a', type: 'image', x: 0, y: 0, width: 120, height: 80, src: dataUri(png, 'image/png') },
    ]);
    const seen = poppler(pdf);
    expect(seen.stderr).toBe('');
    expect(seen.images.map((row) => row.split(' ').slice(0, 2).join('x'))).toEqual(['120x80']);
  });
});
