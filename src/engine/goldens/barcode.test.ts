/**
 * Barcodes scan back to their value with real decoders, in every format: the PNG render and the
 * PDF (rasterised by poppler's pdftoppm), whose bars must be vector (pdfimages lists no image).
 * Decoders: zbarimg (zbar-tools) for the linear formats, dmtxread (dmtx-utils) for Data Matrix,
 * ZXing-C++ (python3-zxing-cpp) for PDF417, which zbar cannot read; ZXing also reads every format
 * as a second opinion. A check is skipped, saying why, only when its decoder is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { type DesignDocument, parseDesignDocument } from '../../design/index.ts';
import { renderInProcess } from '../render.ts';
import { compareGolden, jobFor } from './harness.ts';

interface Case {
  format: string;
  value: string;
  /** What a scanner reads: the value, with the GS1 check digit when it was left out. */
  scans: string;
  width: number;
  height: number;
  extra?: Record<string, unknown>;
}

const CASES: Record<string, Case> = {
  code128: { format: 'code128', value: 'Platen-25 #ok', scans: 'Platen-25 #ok', width: 420, height: 150 },
  ean13: { format: 'ean13', value: '5901234123457', scans: '5901234123457', width: 300, height: 160 },
  'ean13-no-check': {
    format: 'ean13',
    value: '400638133393',
    scans: '4006381333931',
    width: 300,
    height: 160,
  },
  upca: { format: 'upca', value: '036000291452', scans: '036000291452', width: 300, height: 160 },
  code39: { format: 'code39', value: 'PLATEN-25', scans: 'PLATEN-25', width: 420, height: 150 },
  itf14: { format: 'itf14', value: '1001234567890', scans: '10012345678902', width: 440, height: 160 },
  datamatrix: {
    format: 'datamatrix',
    value: 'Platen ✓ Grüße €25',
    scans: 'Platen ✓ Grüße €25',
    width: 200,
    height: 200,
  },
  pdf417: {
    format: 'pdf417',
    value: 'Ticket 25 · Row B · é',
    scans: 'Ticket 25 · Row B · é',
    width: 440,
    height: 160,
  },
  styled: {
    format: 'code128',
    value: 'NAVY-ON-CREAM',
    scans: 'NAVY-ON-CREAM',
    width: 400,
    height: 90,
    extra: { color: '#1e3a5f', background: '#fdf6e3', showText: false },
  },
};

const has = (path: string) => existsSync(path);
const ZBAR = has('/usr/bin/zbarimg');
const DMTX = has('/usr/bin/dmtxread');
const POPPLER = has('/usr/bin/pdftoppm') && has('/usr/bin/pdfimages');
const ZXING = (() => {
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import zxingcpp, numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Which installed decoder reads a format: zbar for the linear ones, as the issue names it. */
function decoderFor(format: string): 'zbar' | 'dmtx' | 'zxing' {
  if (format === 'datamatrix') return 'dmtx';
  if (format === 'pdf417') return 'zxing';
  return 'zbar';
}
const installed = { zbar: ZBAR, dmtx: DMTX, zxing: ZXING };
const packages = { zbar: 'zbar-tools', dmtx: 'dmtx-utils', zxing: 'python3-zxing-cpp' };

/** One page per case, the barcode inset 10 units in a white page. */
function documentFor(names: string[]): DesignDocument {
  const pages = names.map((name) => {
    const c = CASES[name] as Case;
    return {
      id: name,
      width: c.width + 20,
      height: c.height + 20,
      background: '#ffffff',
      elements: [
        {
          id: `code-${name}`,
          type: 'barcode',
          format: c.format,
          value: c.value,
          x: 10,
          y: 10,
          width: c.width,
          height: c.height,
          ...c.extra,
        },
      ],
    };
  });
  const parsed = parseDesignDocument({ schemaVersion: 2, pages });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.document;
}

function zbar(file: string): string {
  // --raw: the bytes as encoded (no charset guessing); UPC-A reported as itself, not as EAN-13.
  return execFileSync('/usr/bin/zbarimg', ['--nodbus', '--raw', '-q', '-Supca.enable', file], {
    encoding: 'utf8',
  }).replace(/\n$/, '');
}

function dmtx(file: string): string {
  return execFileSync('/usr/bin/dmtxread', ['--milliseconds=20000', file], { encoding: 'utf8' });
}

/** ZXing-C++ reads a greyscale image handed over as PGM (no imaging library needed). */
const ZXING_SCRIPT = `
import sys, numpy, zxingcpp
raw = open(sys.argv[1], 'rb').read()
magic, size, depth, pixels = raw.split(b'\\n', 3)
width, height = map(int, size.split())
image = numpy.frombuffer(pixels, dtype=numpy.uint8).reshape(height, width)
for result in zxingcpp.read_barcodes(image):
    sys.stdout.buffer.write(result.bytes + b'\\n')
`;

async function zxing(file: string): Promise<string> {
  const { data, info } = await sharp(file).grayscale().raw().toBuffer({ resolveWithObject: true });
  const pgm = `${file}.pgm`;
  writeFileSync(pgm, Buffer.concat([Buffer.from(`P5\n${info.width} ${info.height}\n255\n`), data]));
  return execFileSync('/usr/bin/python3', ['-c', ZXING_SCRIPT, pgm], { encoding: 'utf8' }).replace(/\n$/, '');
}

async function decode(format: string, file: string): Promise<string> {
  const decoder = decoderFor(format);
  if (decoder === 'zbar') return zbar(file);
  if (decoder === 'dmtx') return dmtx(file);
  return zxing(file);
}

const workDir = mkdtempSync(join(tmpdir(), 'platen-barcodes-'));

describe('barcodes decode back to their value', () => {
  for (const [name, c] of Object.entries(CASES)) {
    const decoder = decoderFor(c.format);
    const skip = installed[decoder] ? '' : ` (skipped: ${packages[decoder]} is not installed)`;
    it.skipIf(!installed[decoder])(`${name}: PNG scans as ${JSON.stringify(c.scans)}${skip}`, async () => {
      const document = documentFor([name]);
      const [file] = await renderInProcess(jobFor(document, 'png', { scale: 2 }));
      if (!file) throw new Error('no file rendered');
      const path = join(workDir, `${name}.png`);
      writeFileSync(path, file.bytes);
      expect(await decode(c.format, path)).toBe(c.scans);
      if (ZXING) expect(await zxing(path)).toBe(c.scans);
      const result = await compareGolden(`barcode-${name}`, file.bytes);
      expect(result.message).toBe(result.pass ? result.message : 'match');
    });
  }
});

const pdfSkip = POPPLER ? '' : ' (skipped: poppler-utils is not installed)';
describe.skipIf(!POPPLER)(`barcodes in PDF are vector and scan${pdfSkip}`, () => {
  it('has no image in the PDF, and every page rasterised by pdftoppm scans as its value', async () => {
    const names = Object.keys(CASES);
    const [file] = await renderInProcess(jobFor(documentFor(names), 'pdf'));
    if (!file) throw new Error('no file rendered');
    const pdf = join(workDir, 'barcodes.pdf');
    writeFileSync(pdf, file.bytes);
    const images = execFileSync('/usr/bin/pdfimages', ['-list', pdf], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(images.slice(2)).toEqual([]);
    // 300 dpi: a 1-unit module is 4 pixels, as a printer would see it.
    execFileSync('/usr/bin/pdftoppm', ['-r', '300', '-png', pdf, join(workDir, 'pdf')]);
    const pages = readdirSync(workDir)
      .filter((f) => /^pdf-\d+\.png$/.test(f))
      .sort();
    expect(pages).toHaveLength(names.length);
    for (const [index, name] of names.entries()) {
      const c = CASES[name] as Case;
      const decoder = decoderFor(c.format);
      if (!installed[decoder]) continue;
      expect(await decode(c.format, join(workDir, pages[index] as string)), name).toBe(c.scans);
    }
  });
});
