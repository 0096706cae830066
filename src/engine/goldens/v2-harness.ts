/**
 * Golden helpers for version 2 features: documents parsed as `schemaVersion: 2`, and a PDF check
 * that renders the same document as PDF, rasterises page 1 with poppler's pdftoppm and compares it
 * with the PNG render (5× the golden ratio: poppler anti-aliases edges and text differently).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { type DesignDocument, parseDesignDocument } from '../../design/index.ts';
import { renderInProcess } from '../render.ts';
import { jobFor, MAX_DIFF_RATIO, PIXEL_THRESHOLD, TMP_DIR } from './harness.ts';

export const POPPLER = existsSync('/usr/bin/pdftoppm') && existsSync('/usr/bin/pdfimages');

/** A one-page version 2 document from raw page fields, every default filled by the real parser. */
export function v2Page(page: Record<string, unknown>): DesignDocument {
  const parsed = parseDesignDocument({ schemaVersion: 2, pages: [{ id: 'p1', ...page }] });
  if (!parsed.ok) throw new Error(`fixture is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

export interface PdfCheck {
  /** Pixels of poppler's page 1 that differ from the PNG render, and how many may. */
  diffPixels: number;
  allowed: number;
  /** `pdfimages -list` rows: the raster images the PDF holds. */
  images: string[];
  text: string;
}

/** Also leaves the PDF and poppler's page 1 in test/.tmp/<name>.pdf(.png) for a look. */
export async function checkPdf(document: DesignDocument, name: string): Promise<PdfCheck> {
  const [pdf] = await renderInProcess(jobFor(document, 'pdf'));
  const dir = mkdtempSync(join(tmpdir(), 'platen-v2-pdf-'));
  const path = join(dir, 'out.pdf');
  mkdirSync(TMP_DIR, { recursive: true });
  writeFileSync(join(TMP_DIR, `${name}.pdf`), pdf?.bytes ?? new Uint8Array());
  writeFileSync(path, pdf?.bytes ?? new Uint8Array());
  execFileSync('pdftoppm', [
    '-r',
    '72',
    '-f',
    '1',
    '-l',
    '1',
    '-png',
    '-singlefile',
    path,
    join(dir, 'page'),
  ]);
  copyFileSync(join(dir, 'page.png'), join(TMP_DIR, `${name}.pdf.png`));
  const fromPdf = PNG.sync.read(readFileSync(join(dir, 'page.png')));
  const [png] = await renderInProcess(jobFor(document, 'png'));
  const direct = PNG.sync.read(Buffer.from(png?.bytes ?? new Uint8Array()));
  if (fromPdf.width !== direct.width || fromPdf.height !== direct.height)
    throw new Error(`PDF page is ${fromPdf.width}x${fromPdf.height}, PNG ${direct.width}x${direct.height}`);
  const diffPixels = pixelmatch(fromPdf.data, direct.data, undefined, direct.width, direct.height, {
    threshold: PIXEL_THRESHOLD,
  });
  const images = execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' }).trim().split('\n').slice(2);
  const text = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  return { diffPixels, allowed: Math.floor(direct.width * direct.height * MAX_DIFF_RATIO * 5), images, text };
}
