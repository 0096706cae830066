/**
 * Reads a font's family name from its `name` table (TTF/OTF directly, WOFF after inflating that
 * table), so an uploaded font is usable by the family name designers know.
 */
import { inflateSync } from 'node:zlib';

const NAME_TAG = 0x6e616d65; // 'name'

function readNameTable(table: Buffer): string | null {
  if (table.length < 6) return null;
  const count = table.readUInt16BE(2);
  const stringOffset = table.readUInt16BE(4);
  let best: { priority: number; value: string } | null = null;
  for (let i = 0; i < count; i++) {
    const at = 6 + i * 12;
    if (at + 12 > table.length) break;
    const platform = table.readUInt16BE(at);
    const nameId = table.readUInt16BE(at + 6);
    const length = table.readUInt16BE(at + 8);
    const offset = table.readUInt16BE(at + 10);
    if (nameId !== 1 && nameId !== 16) continue;
    const start = stringOffset + offset;
    if (start + length > table.length) continue;
    const raw = table.subarray(start, start + length);
    const value = platform === 1 ? raw.toString('latin1') : raw.swap16().toString('utf16le');
    // Typographic family (16) beats legacy family (1); Windows/Unicode beats Mac.
    const priority = (nameId === 16 ? 2 : 0) + (platform === 1 ? 0 : 1);
    if (value.trim() && (!best || priority > best.priority)) best = { priority, value: value.trim() };
  }
  return best?.value ?? null;
}

function sfntFamily(bytes: Buffer): string | null {
  const numTables = bytes.readUInt16BE(4);
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    if (at + 16 > bytes.length) return null;
    if (bytes.readUInt32BE(at) !== NAME_TAG) continue;
    const offset = bytes.readUInt32BE(at + 8);
    const length = bytes.readUInt32BE(at + 12);
    return readNameTable(Buffer.from(bytes.subarray(offset, offset + length)));
  }
  return null;
}

function woffFamily(bytes: Buffer): string | null {
  const numTables = bytes.readUInt16BE(12);
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    if (at + 20 > bytes.length) return null;
    if (bytes.readUInt32BE(at) !== NAME_TAG) continue;
    const offset = bytes.readUInt32BE(at + 4);
    const compLength = bytes.readUInt32BE(at + 8);
    const origLength = bytes.readUInt32BE(at + 12);
    const data = bytes.subarray(offset, offset + compLength);
    const table =
      compLength < origLength ? inflateSync(data, { maxOutputLength: 1 << 20 }) : Buffer.from(data);
    return readNameTable(table);
  }
  return null;
}

/** The family name, or null when it cannot be read (e.g. WOFF2: the caller supplies one). */
export function fontFamilyName(bytes: Uint8Array, mimeType: string): string | null {
  const buffer = Buffer.from(bytes);
  try {
    if (mimeType === 'font/woff') return woffFamily(buffer);
    if (mimeType === 'font/ttf' || mimeType === 'font/otf') return sfntFamily(buffer);
  } catch {
    return null;
  }
  return null;
}
