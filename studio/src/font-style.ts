/**
 * The weight and style a font file declares (its OS/2 table: usWeightClass, fsSelection's italic
 * bit), so an uploaded family of several files is matched by weight in the browser as the server's
 * font manager matches it. TTF/OTF directly, WOFF after inflating the one table; WOFF2 and anything
 * unreadable gives null (the caller then lets the one face serve every weight).
 */
const OS2 = 0x4f532f32;

export interface FaceStyle {
  weight: number;
  style: 'normal' | 'italic';
}

function fromTable(table: DataView): FaceStyle | null {
  if (table.byteLength < 64) return null;
  const weight = table.getUint16(4);
  const italic = (table.getUint16(62) & 1) === 1;
  if (weight < 1 || weight > 1000) return null;
  return { weight, style: italic ? 'italic' : 'normal' };
}

async function inflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function faceStyleOf(buffer: ArrayBuffer): Promise<FaceStyle | null> {
  try {
    const view = new DataView(buffer);
    const signature = view.getUint32(0);
    if (signature === 0x774f4646) {
      // 'wOFF': 20-byte table directory entries from offset 44.
      const count = view.getUint16(12);
      for (let i = 0; i < count; i++) {
        const at = 44 + i * 20;
        if (view.getUint32(at) !== OS2) continue;
        const offset = view.getUint32(at + 4);
        const compLength = view.getUint32(at + 8);
        const origLength = view.getUint32(at + 12);
        const raw = new Uint8Array(buffer, offset, compLength);
        const table = compLength < origLength ? await inflate(raw) : raw.slice();
        return fromTable(new DataView(table.buffer, table.byteOffset, table.byteLength));
      }
      return null;
    }
    if (signature !== 0x00010000 && signature !== 0x4f54544f && signature !== 0x74727565) return null;
    const count = view.getUint16(4);
    for (let i = 0; i < count; i++) {
      const at = 12 + i * 16;
      if (view.getUint32(at) !== OS2) continue;
      const offset = view.getUint32(at + 8);
      const length = view.getUint32(at + 12);
      return fromTable(new DataView(buffer, offset, Math.min(length, buffer.byteLength - offset)));
    }
  } catch {
    // a truncated or odd file: no declared style
  }
  return null;
}
