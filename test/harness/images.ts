/** Reads the type and size of PNG, JPEG and PDF bytes, to check what a render URL serves. */
export interface ImageInfo {
  type: 'png' | 'jpeg' | 'pdf' | 'unknown';
  width?: number;
  height?: number;
  pages?: number;
}

export function imageInfo(bytes: Buffer): ImageInfo {
  if (bytes.length > 24 && bytes.readUInt32BE(0) === 0x89504e47) {
    return { type: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { type: 'jpeg', ...jpegSize(bytes) };
  if (bytes.subarray(0, 5).toString() === '%PDF-') {
    return { type: 'pdf', pages: (bytes.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length };
  }
  return { type: 'unknown' };
}

function jpegSize(bytes: Buffer): { width?: number; height?: number } {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = bytes[i + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: bytes.readUInt16BE(i + 5), width: bytes.readUInt16BE(i + 7) };
    }
    i += 2 + bytes.readUInt16BE(i + 2);
  }
  return {};
}
