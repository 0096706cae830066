/**
 * Photos in PDFs without re-encoding them on every render. Skia's PDF backend gets decoded pixels
 * from @napi-rs/canvas and JPEG-encodes every image of every document anew (tens of ms for a
 * photo). So each opaque photo is drawn as a tiny placeholder of a size that names it, and once
 * Skia has written the file, the placeholder's image XObject is replaced by JPEG data (PDF 32000-1
 * §8.9.5 image dictionaries, §7.4.8 DCTDecode) and the cross-reference table (§7.5.4) rewritten:
 * - a JPEG source drawn at up to twice its pixel size goes in unchanged (only scaled, never
 *   re-encoded), whatever the render;
 * - a larger JPEG is downscaled to the device size once and that encoding is cached, by content,
 *   size and quality, across renders (PLATEN_CACHE_PDF_IMAGES_MB).
 * Everything else (PNG with alpha, SVG rasters) stays with Skia. Text and vectors are untouched.
 */
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { cacheBytes } from './cache-limits.ts';
import type { Drawable, LoadedImage } from './images.ts';
import { Lru } from './lru.ts';

interface Embedded {
  bytes: Buffer;
  width: number;
  height: number;
}

const encodings = new Lru<string, Embedded>({
  name: 'pdf-images',
  maxEntries: 256,
  maxWeight: cacheBytes('pdfImages'),
  weigh: (entry) => entry.bytes.byteLength,
});

/** Placeholders are 2 pixels wide and 2 + n tall: n names the substitution. */
const PLACEHOLDER_WIDTH = 2;
const placeholders: Canvas[] = [];

function placeholder(n: number): Canvas {
  let canvas = placeholders[n];
  if (!canvas) {
    canvas = createCanvas(PLACEHOLDER_WIDTH, 2 + n);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#808080';
    ctx.fillRect(0, 0, PLACEHOLDER_WIDTH, 2 + n);
    placeholders[n] = canvas;
  }
  return canvas;
}

/** The JPEG to embed for `image` drawn at a device size, or null when Skia should draw it. */
async function embeddedJpeg(image: LoadedImage, width: number, height: number, quality: number) {
  if (image.kind !== 'bitmap' || !image.jpeg) return null;
  if (width * height * 4 >= image.width * image.height) {
    return { bytes: image.jpeg, width: image.width, height: image.height };
  }
  const key = `${image.id}@${width}x${height}q${quality}`;
  const known = encodings.get(key);
  if (known) return known;
  const bytes = await sharp(image.jpeg)
    .resize(width, height, { fit: 'fill' })
    .jpeg({ quality, chromaSubsampling: '4:2:0' })
    .toBuffer();
  const entry = { bytes, width, height };
  encodings.set(key, entry);
  return entry;
}

/** One document's substitutions: placeholders handed to the drawing, their JPEG data for the file. */
export class PdfImageSwap {
  private readonly byKey = new Map<string, number>();
  private readonly pending: Promise<Embedded | null>[] = [];

  constructor(private readonly quality: number) {}

  /** A placeholder to draw instead of `image`, or null when it is left to Skia. */
  placeholderFor(image: LoadedImage | undefined, width: number, height: number): Drawable | null {
    if (image?.kind !== 'bitmap' || !image.jpeg) return null;
    const id = `${image.id}@${width}x${height}`;
    let n = this.byKey.get(id);
    if (n === undefined) {
      n = this.pending.length;
      this.byKey.set(id, n);
      this.pending.push(
        embeddedJpeg(image, Math.max(1, Math.round(width)), Math.max(1, Math.round(height)), this.quality),
      );
    }
    return placeholder(n);
  }

  get count(): number {
    return this.pending.length;
  }

  /** The file with every placeholder's image replaced by its JPEG. */
  async apply(pdf: Uint8Array): Promise<Buffer> {
    const embedded = await Promise.all(this.pending);
    return replaceImages(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), embedded);
  }
}

interface XrefEntry {
  offset: number;
  generation: string;
  kind: string;
}

function readXref(pdf: Buffer): { at: number; entries: XrefEntry[]; trailer: string } {
  const tail = pdf.subarray(Math.max(0, pdf.length - 64)).toString('latin1');
  const at = Number(/startxref\s+(\d+)/.exec(tail)?.[1] ?? Number.NaN);
  const text = pdf.subarray(at).toString('latin1');
  const header = /^xref\n0 (\d+)\n/.exec(text);
  if (!header) throw new Error('unexpected PDF cross-reference table');
  const count = Number(header[1]);
  const entries: XrefEntry[] = [];
  let line = header[0].length;
  for (let i = 0; i < count; i++, line += 20) {
    const [offset = '0', generation = '0', kind = 'f'] = text.slice(line, line + 18).split(' ');
    entries.push({ offset: Number(offset), generation, kind });
  }
  const trailer = text.slice(line, text.indexOf('startxref', line));
  return { at, entries, trailer };
}

const IMAGE_HEAD = /^(\d+) 0 obj\n<<\/Type \/XObject\n\/Subtype \/Image\n\/Width 2\n\/Height (\d+)\n/;

/** Rewrites each placeholder image object and the cross-reference table after them. */
function replaceImages(pdf: Buffer, embedded: readonly (Embedded | null)[]): Buffer {
  if (embedded.every((entry) => entry === null)) return pdf;
  const { at, entries, trailer } = readXref(pdf);
  const order = entries
    .map((entry, number) => ({ ...entry, number }))
    .filter((entry) => entry.kind === 'n')
    .sort((a, b) => a.offset - b.offset);
  const parts: Buffer[] = [];
  const offsets = new Map<number, number>();
  let written = 0;
  let cursor = 0;
  order.forEach((entry, index) => {
    const end = order[index + 1]?.offset ?? at;
    parts.push(pdf.subarray(cursor, entry.offset));
    written += entry.offset - cursor;
    offsets.set(entry.number, written);
    const object = pdf.subarray(entry.offset, end);
    const head = IMAGE_HEAD.exec(object.subarray(0, 200).toString('latin1'));
    const swap = head ? embedded[Number(head[2]) - 2] : null;
    const replaced = swap && head ? imageObject(head[1] ?? '0', object, swap) : object;
    parts.push(replaced);
    written += replaced.length;
    cursor = end;
  });
  const xref = [`xref\n0 ${entries.length}\n`];
  entries.forEach((entry, number) => {
    const offset = entry.kind === 'n' ? (offsets.get(number) ?? entry.offset) : entry.offset;
    xref.push(`${String(offset).padStart(10, '0')} ${entry.generation} ${entry.kind} \n`);
  });
  const tailText = `${xref.join('')}${trailer}startxref\n${written}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(tailText, 'latin1')]);
}

function imageObject(number: string, original: Buffer, jpeg: Embedded): Buffer {
  const dictionary = original.subarray(0, original.indexOf('>> stream')).toString('latin1');
  const colorSpace = /\/ColorSpace ([^\n]+)\n/.exec(dictionary)?.[1] ?? '/DeviceRGB';
  const head =
    `${number} 0 obj\n<</Type /XObject\n/Subtype /Image\n/Width ${jpeg.width}\n/Height ${jpeg.height}\n` +
    `/ColorSpace ${colorSpace}\n/BitsPerComponent 8\n/Filter /DCTDecode\n/Length ${jpeg.bytes.length}>> stream\n`;
  return Buffer.concat([
    Buffer.from(head, 'latin1'),
    jpeg.bytes,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
}
