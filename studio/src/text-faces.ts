/**
 * The font faces a page's text asks for, shared by the shell (which loads them when a document
 * opens) and the editor (which loads faces picked later): each text element's own face and each
 * of its rich text spans' (a span inherits what it omits), inside groups too.
 */
import { type Page, walkElements } from '../../src/engine/browser.ts';

/** Every face a page's text asks for: each text element's, and each of its spans' (nested ones too). */
export function* textFaces(
  page: Page,
): Generator<{ fontFamily: string; fontWeight: number; fontStyle: string; text: string }> {
  for (const { element: el } of walkElements(page.elements)) {
    if (el.type !== 'text') continue;
    yield el;
    for (const span of el.spans ?? [])
      yield {
        fontFamily: span.fontFamily ?? el.fontFamily,
        fontWeight: span.fontWeight ?? el.fontWeight,
        fontStyle: span.fontStyle ?? el.fontStyle,
        text: span.text,
      };
  }
}
