/**
 * Rich text (design document version 2): the spans of a `text` element, each inheriting what it
 * omits from its element, and the element-level text outline and highlight. A span's `link`
 * becomes a clickable link annotation in PDF output.
 */
import { z } from 'zod';
import { designBounds as B } from './bounds.ts';
import { colorSchema } from './color.ts';

const finite = (min: number, max: number) => z.number().min(min).max(max);

function isLink(text: string): boolean {
  // Kept as written, so it must already be what a URL parser would keep: no spaces or controls
  // (the parser strips them silently, and the PDF annotation would carry them).
  if (/\s|\p{Cc}/u.test(text)) return false;
  try {
    const url = new URL(text);
    if (url.protocol === 'mailto:') return url.pathname.length > 0;
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export const linkSchema = z
  .string()
  .max(B.linkLength)
  .refine(isLink, { error: 'must be an http(s) or mailto URL' });

export const spanSchema = z.strictObject({
  text: z.string().max(B.textLength),
  fontFamily: z.string().min(1).max(B.fontFamilyLength).optional(),
  fontWeight: z.number().int().min(100).max(900).optional(),
  fontStyle: z.enum(['normal', 'italic']).optional(),
  fontSize: finite(B.fontSize.min, B.fontSize.max).optional(),
  color: colorSchema.optional(),
  underline: z.boolean().optional(),
  strike: z.boolean().optional(),
  letterSpacing: finite(-B.letterSpacing, B.letterSpacing).optional(),
  /** A colour painted behind the span's glyphs, line by line. */
  background: colorSchema.optional(),
  link: linkSchema.optional(),
});

export const textStrokeSchema = z.strictObject({
  color: colorSchema,
  width: finite(0, B.textStrokeWidth),
});

export const textHighlightSchema = z.strictObject({
  color: colorSchema,
  padding: finite(0, B.highlightPadding).default(0),
  cornerRadius: finite(0, B.cornerRadius).default(0),
});

export type Span = z.output<typeof spanSchema>;
export type SpanInput = z.input<typeof spanSchema>;
export type TextStroke = z.output<typeof textStrokeSchema>;
export type TextHighlight = z.output<typeof textHighlightSchema>;
