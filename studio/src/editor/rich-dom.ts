/**
 * The DOM side of in-place rich text editing: spans written into a contenteditable element (one
 * `<span data-span=i>` per span, styled like the span), the element's content read back into
 * spans after the browser has typed into it, and DOM selections mapped to and from character
 * offsets. Reading counts exactly what writing wrote: text nodes, and `<br>` as a line break
 * (except the marker `<br data-end>` that lets a trailing line break show).
 */
import type { Span } from '../../../src/engine/browser.ts';
import { normalizeSpans, type SpanStyle, styleOf } from './spans.ts';

/** CSS for a span's own style over its element's, at `zoom` screen pixels per page unit. */
export function spanCss(style: SpanStyle, zoom: number): Partial<CSSStyleDeclaration> {
  const css: Partial<CSSStyleDeclaration> = {};
  if (style.fontFamily) css.fontFamily = `"${style.fontFamily}", Inter, sans-serif`;
  if (style.fontWeight !== undefined) css.fontWeight = String(style.fontWeight);
  if (style.fontStyle) css.fontStyle = style.fontStyle;
  if (style.fontSize !== undefined) css.fontSize = `${style.fontSize * zoom}px`;
  if (style.color) css.color = style.color;
  if (style.letterSpacing !== undefined) css.letterSpacing = `${style.letterSpacing * zoom}px`;
  if (style.background) css.backgroundColor = style.background;
  const lines = [style.underline || style.link ? 'underline' : '', style.strike ? 'line-through' : '']
    .filter(Boolean)
    .join(' ');
  if (lines) css.textDecoration = lines;
  return css;
}

/** Replaces the editable's content by `spans`; returns the styles its `data-span` indices name. */
export function writeSpans(root: HTMLElement, spans: readonly Span[], zoom: number): SpanStyle[] {
  const styles = spans.map(styleOf);
  root.replaceChildren();
  spans.forEach((span, i) => {
    const node = document.createElement('span');
    node.dataset.span = String(i);
    Object.assign(node.style, spanCss(styles[i] ?? {}, zoom));
    if (span.link) node.title = span.link;
    node.textContent = span.text;
    root.append(node);
  });
  if (spans.at(-1)?.text.endsWith('\n')) {
    const end = document.createElement('br');
    end.dataset.end = '';
    root.append(end);
  }
  return styles;
}

const BLOCKS = new Set(['DIV', 'P', 'LI']);

/** The content of `root` (an editable, or a fragment cut from it) as spans. */
export function readSpans(root: Node, styles: readonly SpanStyle[]): Span[] {
  const out: Span[] = [];
  const text = () => out.map((s) => s.text).join('');
  const walk = (node: Node, style: SpanStyle) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        out.push({ ...style, text: (child as Text).data });
        continue;
      }
      if (!(child instanceof HTMLElement)) continue;
      if (child.tagName === 'BR') {
        if (!('end' in child.dataset)) out.push({ ...style, text: '\n' });
        continue;
      }
      const index = child.dataset.span;
      const own = index !== undefined ? (styles[Number(index)] ?? style) : style;
      // A block the browser made (pasting, or Enter where it was not caught) starts a new line.
      if (BLOCKS.has(child.tagName) && out.length > 0 && !text().endsWith('\n'))
        out.push({ ...own, text: '\n' });
      walk(child, own);
    }
  };
  walk(root, styles[0] ?? {});
  if (out.length === 0) return [{ ...(styles[0] ?? {}), text: '' }];
  return normalizeSpans(out);
}

/** Characters from the start of `root` to the DOM boundary (node, offset). */
function offsetAt(root: HTMLElement, node: Node, offset: number, styles: readonly SpanStyle[]): number {
  const range = document.createRange();
  range.setStart(root, 0);
  range.setEnd(node, offset);
  return readSpans(range.cloneContents(), styles)
    .map((s) => s.text)
    .join('').length;
}

/** The selection inside `root` as [start, end] character offsets, or null when it is elsewhere. */
export function selectionOffsets(root: HTMLElement, styles: readonly SpanStyle[]): [number, number] | null {
  const selection = root.ownerDocument.getSelection();
  if (!selection || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  return [
    offsetAt(root, range.startContainer, range.startOffset, styles),
    offsetAt(root, range.endContainer, range.endOffset, styles),
  ];
}

/** The DOM boundary at character `offset` of `root`. */
function boundaryAt(root: HTMLElement, offset: number): [Node, number] {
  let remaining = offset;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) {
      const length = (node as Text).data.length;
      if (remaining <= length) return [node, remaining];
      remaining -= length;
    } else if (node instanceof HTMLElement && node.tagName === 'BR' && !('end' in node.dataset)) {
      const parent = node.parentNode ?? root;
      const index = Array.prototype.indexOf.call(parent.childNodes, node) as number;
      if (remaining === 0) return [parent, index];
      remaining -= 1;
      if (remaining === 0) return [parent, index + 1];
    }
  }
  return [root, root.childNodes.length];
}

/** Selects characters [start, end) of `root`. */
export function selectOffsets(root: HTMLElement, start: number, end: number): void {
  const selection = root.ownerDocument.getSelection();
  if (!selection) return;
  const range = document.createRange();
  const [a, ao] = boundaryAt(root, start);
  const [b, bo] = boundaryAt(root, end);
  range.setStart(a, ao);
  range.setEnd(b, bo);
  selection.removeAllRanges();
  selection.addRange(range);
}
