/**
 * Rich text as the editor changes it: a text element's content as spans (plain `text` is one span
 * with no style of its own), styles applied to a character range (splitting spans at its ends),
 * text replaced in a range (the new text takes the style where it goes), and the content stored
 * back: plain `text` when no span styles anything, else `spans` with adjacent equal spans merged.
 * Offsets are string indices (UTF-16 code units), as DOM selections count them.
 */
import type { Span, TextElement } from '../../../src/engine/browser.ts';

export type SpanStyle = Omit<Span, 'text'>;
/** A style change: a value sets the property, `undefined` clears it (the span inherits again). */
export type StylePatch = { [K in keyof SpanStyle]?: SpanStyle[K] | undefined };

const STYLE_KEYS = [
  'fontFamily',
  'fontWeight',
  'fontStyle',
  'fontSize',
  'color',
  'underline',
  'strike',
  'letterSpacing',
  'background',
  'link',
] as const satisfies readonly (keyof SpanStyle)[];

export function styleOf(span: Span): SpanStyle {
  const style: SpanStyle = {};
  for (const key of STYLE_KEYS) if (span[key] !== undefined) Object.assign(style, { [key]: span[key] });
  return style;
}

export function sameStyle(a: Span, b: Span): boolean {
  return STYLE_KEYS.every((key) => a[key] === b[key]);
}

/** The element's content as spans: its own spans, or its plain text as one unstyled span. */
export function spansOf(el: Pick<TextElement, 'text' | 'spans'>): Span[] {
  return el.spans && el.spans.length > 0 ? el.spans.map((s) => ({ ...s })) : [{ text: el.text }];
}

export function textOf(spans: readonly Span[]): string {
  return spans.map((s) => s.text).join('');
}

/** Adjacent spans of equal style merged, empty spans dropped (one empty span stays when all are). */
export function normalizeSpans(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    if (span.text === '') continue;
    const last = out.at(-1);
    if (last && sameStyle(last, span)) out[out.length - 1] = { ...last, text: last.text + span.text };
    else out.push({ ...span });
  }
  if (out.length === 0) return [{ ...styleOf(spans[0] ?? { text: '' }), text: '' }];
  return out;
}

/** Splits spans so that `at` falls on a span boundary; returns the new list. */
function splitAt(spans: readonly Span[], at: number): Span[] {
  const out: Span[] = [];
  let pos = 0;
  for (const span of spans) {
    const end = pos + span.text.length;
    if (at > pos && at < end) {
      out.push({ ...span, text: span.text.slice(0, at - pos) }, { ...span, text: span.text.slice(at - pos) });
    } else out.push({ ...span });
    pos = end;
  }
  return out;
}

function clampRange(spans: readonly Span[], start: number, end: number): [number, number] {
  const length = textOf(spans).length;
  const a = Math.max(0, Math.min(length, Math.min(start, end)));
  const b = Math.max(0, Math.min(length, Math.max(start, end)));
  return [a, b];
}

function patched(span: Span, patch: StylePatch): Span {
  const next: Span = { ...span };
  for (const key of Object.keys(patch) as (keyof StylePatch)[]) {
    const value = patch[key];
    if (value === undefined) delete next[key];
    else Object.assign(next, { [key]: value });
  }
  return next;
}

/** The spans with `patch` applied to the characters [start, end); other characters keep their style. */
export function applyStyle(spans: readonly Span[], start: number, end: number, patch: StylePatch): Span[] {
  const [a, b] = clampRange(spans, start, end);
  if (a === b) return normalizeSpans(spans);
  const parts = splitAt(splitAt(spans, a), b);
  let pos = 0;
  const out = parts.map((span) => {
    const from = pos;
    pos += span.text.length;
    return from >= a && pos <= b && span.text.length > 0 ? patched(span, patch) : span;
  });
  return normalizeSpans(out);
}

/** The spans covering [start, end), cut to it (the span at `start` when the range is empty). */
export function spansIn(spans: readonly Span[], start: number, end: number): Span[] {
  const [a, b] = clampRange(spans, start, end);
  let pos = 0;
  const out: Span[] = [];
  for (const span of spans) {
    const from = pos;
    pos += span.text.length;
    if (a === b) {
      // A caret takes the style of the character before it (the first span's at the start).
      if ((a > from && a <= pos) || (a === 0 && from === 0)) return [{ ...span, text: '' }];
      continue;
    }
    if (pos <= a || from >= b) continue;
    out.push({ ...span, text: span.text.slice(Math.max(0, a - from), Math.min(span.text.length, b - from)) });
  }
  return out.length > 0 ? out : [{ ...(spans.at(-1) ?? { text: '' }), text: '' }];
}

/** A property's value if every span of the range has the same one, else undefined. */
export function commonValue<K extends keyof SpanStyle>(
  spans: readonly Span[],
  start: number,
  end: number,
  key: K,
): SpanStyle[K] | undefined {
  const covered = spansIn(spans, start, end);
  const first = covered[0]?.[key];
  return covered.every((s) => s[key] === first) ? first : undefined;
}

/**
 * Text `insert` in place of [start, end), in the style of the first replaced character, or of the
 * character before `start` when nothing is replaced (as typing over a selection or at a caret).
 */
export function replaceRange(spans: readonly Span[], start: number, end: number, insert: string): Span[] {
  const [a, b] = clampRange(spans, start, end);
  const style = styleOf(spansIn(spans, a, a < b ? a + 1 : a)[0] ?? { text: '' });
  const parts = splitAt(splitAt(spans, a), b);
  const out: Span[] = [];
  let pos = 0;
  let inserted = false;
  for (const span of parts) {
    const from = pos;
    pos += span.text.length;
    if (!inserted && from >= a) {
      out.push({ ...style, text: insert });
      inserted = true;
    }
    if (from >= a && pos <= b && span.text.length > 0) continue;
    out.push(span);
  }
  if (!inserted) out.push({ ...style, text: insert });
  return normalizeSpans(out);
}

/**
 * The spans with their text changed to `next`: the common start and end keep their styles and
 * only the changed middle is replaced, so editing the plain text of a styled element keeps the
 * styles of everything the edit did not touch.
 */
export function replaceText(spans: readonly Span[], next: string): Span[] {
  const current = textOf(spans);
  if (current === next) return normalizeSpans(spans);
  let head = 0;
  while (head < current.length && head < next.length && current[head] === next[head]) head++;
  let tail = 0;
  while (
    tail < current.length - head &&
    tail < next.length - head &&
    current[current.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail++;
  return replaceRange(spans, head, current.length - tail, next.slice(head, next.length - tail));
}

/**
 * The element fields that store `spans`: plain `text` (and no spans) when nothing is styled,
 * else `text: ''` and the normalised spans, as the schema wants one or the other.
 */
export function contentFields(spans: readonly Span[]): { text: string; spans: Span[] | undefined } {
  const normal = normalizeSpans(spans);
  const [only] = normal;
  if (normal.length === 1 && only && Object.keys(styleOf(only)).length === 0)
    return { text: only.text, spans: undefined };
  return { text: '', spans: normal };
}

/** Whether the range is bold in the element: every character's effective weight is 600 or more. */
export function isBold(
  el: Pick<TextElement, 'fontWeight'>,
  spans: readonly Span[],
  start: number,
  end: number,
) {
  return spansIn(spans, start, end).every((s) => (s.fontWeight ?? el.fontWeight) >= 600);
}

export function isItalic(
  el: Pick<TextElement, 'fontStyle'>,
  spans: readonly Span[],
  start: number,
  end: number,
) {
  return spansIn(spans, start, end).every((s) => (s.fontStyle ?? el.fontStyle) === 'italic');
}

/** The patch that toggles bold on a range: a span that would equal its element inherits instead. */
export function boldPatch(el: Pick<TextElement, 'fontWeight'>, bold: boolean): StylePatch {
  const weight = bold
    ? el.fontWeight >= 600
      ? el.fontWeight
      : 700
    : el.fontWeight < 600
      ? el.fontWeight
      : 400;
  return { fontWeight: weight === el.fontWeight ? undefined : weight };
}

export function italicPatch(el: Pick<TextElement, 'fontStyle'>, italic: boolean): StylePatch {
  const style = italic ? 'italic' : 'normal';
  return { fontStyle: style === el.fontStyle ? undefined : style };
}
