/**
 * HTTP byte ranges (RFC 9110 section 14), the single-range subset media players use: `bytes=a-b`,
 * `bytes=a-` and the suffix `bytes=-n`. Pure: parsing the header and fitting it to a file's size.
 */
import type { ByteRange } from './types.ts';

/** One range as the client asked for it, before the file's size is known. */
export type RangeRequest = { first: number; last: number | null } | { suffix: number };

const SPEC = /^(\d*)-(\d*)$/;

/**
 * The one byte range a `Range` header asks for, or null when the header is to be ignored and the
 * whole file sent (RFC 9110 14.2 lets a server ignore Range): absent, another unit, malformed,
 * invalid (`last < first`), or several ranges (a multipart answer is more than a player needs).
 */
export function parseRange(header: string | undefined): RangeRequest | null {
  if (header === undefined) return null;
  const equals = header.indexOf('=');
  // The unit is a case-insensitive token (14.1).
  if (equals < 0 || header.slice(0, equals).trim().toLowerCase() !== 'bytes') return null;
  // A list rule: elements split by commas with optional whitespace, and empty elements allowed.
  const specs = header
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length !== 1) return null;
  const match = SPEC.exec(specs[0] as string);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '') return last === '' ? null : { suffix: Number(last) };
  // Digits beyond 2^53 lose precision but keep their order of magnitude, and no file is that big:
  // such a first is past the end (416) and such a last is clamped to the end.
  const range = { first: Number(first), last: last === '' ? null : Number(last) };
  return range.last !== null && range.last < range.first ? null : range;
}

/**
 * Fits a requested range to a file of `byteSize` bytes (14.1.2): a last past the end, or a suffix
 * longer than the file, stops at the end. 'unsatisfiable' (416) when it starts at or past the end,
 * or is an empty suffix (`bytes=-0`). null for an empty file: no range of it can be written as
 * `Content-Range`, so the (empty) whole is sent instead.
 */
export function resolveRange(request: RangeRequest, byteSize: number): ByteRange | 'unsatisfiable' | null {
  if (byteSize === 0) return null;
  const lastByte = byteSize - 1;
  if ('suffix' in request) {
    if (request.suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, byteSize - request.suffix), end: lastByte };
  }
  if (request.first >= byteSize) return 'unsatisfiable';
  return { start: request.first, end: Math.min(request.last ?? lastByte, lastByte) };
}
