/**
 * Files tagged with an EXIF orientation in the ways real files carry it, for the tests that check
 * Platen reads it as Skia does (backends/exif.test.ts, exif-orientation.test.ts).
 */
import sharp from 'sharp';

export type Entry = [tag: number, type: number, count: number, value: number];
export const ORIENTATION = (value: number, type = 3): Entry => [0x0112, type, 1, value];

/** A little-endian TIFF structure: IFD0's entries, and an Exif sub-directory's if given. */
export function tiff(ifd0: Entry[], exifIfd?: Entry[]): Buffer {
  const entries = exifIfd ? [...ifd0, [0x8769, 4, 1, 0] as Entry] : [...ifd0];
  entries.sort((a, b) => a[0] - b[0]);
  const subAt = 8 + 2 + entries.length * 12 + 4;
  const buffer = Buffer.alloc(subAt + (exifIfd ? 2 + exifIfd.length * 12 + 4 : 0));
  buffer.write('II', 0, 'latin1');
  buffer.writeUInt16LE(42, 2);
  buffer.writeUInt32LE(8, 4);
  const write = (at: number, list: Entry[]) => {
    buffer.writeUInt16LE(list.length, at);
    list.forEach(([tag, type, count, value], i) => {
      const entry = at + 2 + i * 12;
      buffer.writeUInt16LE(tag, entry);
      buffer.writeUInt16LE(type, entry + 2);
      buffer.writeUInt32LE(count, entry + 4);
      if (type === 3) buffer.writeUInt16LE(value, entry + 8);
      else buffer.writeUInt32LE(tag === 0x8769 ? subAt : value, entry + 8);
    });
  };
  write(8, entries);
  if (exifIfd) write(subAt, exifIfd);
  return buffer;
}

/** The JPEG with APP1 segments (each: signature, then a TIFF structure) right after its start. */
export function jpegWith(jpeg: Buffer, ...segments: [signature: string, tiff: Buffer][]): Buffer {
  const parts = segments.map(([signature, structure]) => {
    const body = Buffer.concat([Buffer.from(signature, 'latin1'), structure]);
    const head = Buffer.alloc(4);
    head.writeUInt16BE(0xffe1, 0);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  });
  return Buffer.concat([jpeg.subarray(0, 2), ...parts, jpeg.subarray(2)]);
}

/** A WebP tagged by libvips (its EXIF chunk starts "Exif\0\0"), and the same with the chunk as bare TIFF, as cwebp writes it. */
export async function webps(orientation: number, stored: Buffer): Promise<{ libvips: Buffer; bare: Buffer }> {
  const libvips = await sharp(stored).withMetadata({ orientation }).webp({ lossless: true }).toBuffer();
  let at = 12;
  while (libvips.toString('latin1', at, at + 4) !== 'EXIF')
    at += 8 + libvips.readUInt32LE(at + 4) + (libvips.readUInt32LE(at + 4) % 2);
  const size = libvips.readUInt32LE(at + 4);
  const chunk = libvips.subarray(at + 8, at + 8 + size);
  if (chunk.toString('latin1', 0, 6) !== 'Exif\0\0')
    throw new Error('libvips wrote its EXIF chunk another way');
  const bareChunk = chunk.subarray(6);
  const header = Buffer.alloc(8);
  header.write('EXIF', 0, 'latin1');
  header.writeUInt32LE(bareChunk.length, 4);
  const pad = Buffer.alloc(bareChunk.length % 2);
  const bare = Buffer.concat([
    libvips.subarray(0, at),
    header,
    bareChunk,
    pad,
    libvips.subarray(at + 8 + size + (size % 2)),
  ]);
  bare.writeUInt32LE(bare.length - 8, 4);
  return { libvips, bare };
}

/** A RIFF file's chunks after "WEBP", each with its header and padding. */
function webpChunks(file: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 12; at + 8 <= file.length; ) {
    const size = file.readUInt32LE(at + 4);
    const end = at + 8 + size + (size % 2);
    chunks.push(file.subarray(at, end));
    at = end;
  }
  return chunks;
}

/** A WebP file of these chunks: "RIFF", its size, "WEBP", then the chunks. */
function webpOf(chunks: Buffer[], declaredChunks = chunks.length): Buffer {
  const head = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
  const declared = chunks.slice(0, declaredChunks).reduce((sum, chunk) => sum + chunk.length, 4);
  head.writeUInt32LE(declared, 4);
  return Buffer.concat([head, ...chunks]);
}

/**
 * Bare-TIFF EXIF chunks where decoders do not read them: in an extended file whose VP8X does not
 * flag EXIF, in a simple (VP8L) file, and past the size the RIFF header declares.
 */
export async function unreadWebpExif(orientation: number, stored: Buffer) {
  const { bare } = await webps(orientation, stored);
  const chunks = webpChunks(bare);
  const exif = chunks.find((chunk) => chunk.toString('latin1', 0, 4) === 'EXIF') as Buffer;
  const unflagged = Buffer.from(bare);
  unflagged[20] = (unflagged[20] as number) & ~0x08;
  const simple = webpChunks(await sharp(stored).webp({ lossless: true }).toBuffer());
  const others = chunks.filter((chunk) => chunk !== exif);
  return {
    unflagged,
    simple: webpOf([...simple, exif]),
    pastTheEnd: webpOf([...others, exif], others.length),
  };
}
