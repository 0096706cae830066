/**
 * Public face of the pure layout step: document page + fonts + image sizes → draw operations.
 * No I/O and no canvas here; it runs unchanged in Node and in the browser.
 */
import { isImageBackground, type Page, walkElements } from '../../design/index.ts';

export { LayoutFailure, svgElementImageKey } from './elements.ts';
export {
  BUNDLED_FAMILIES,
  type BundledFamily,
  bundledFontCatalog,
  CJK_FAMILY,
  DEFAULT_FAMILY,
  EMOJI_FAMILY,
  FALLBACK_FAMILIES,
  GENERIC_FAMILIES,
} from './font-catalog.ts';
export { familyChain, fontShorthand, resolveFamily } from './fonts.ts';
export { type LayoutResult, layoutPage } from './page.ts';
export { planSvgDrawing, readSvg, type SvgDocument, svgIntrinsicSize } from './svg/document.ts';
export { SVG_MAX_FILTER_WORK, type SvgFilterCost, svgFilterCost, svgFilterWork } from './svg/filters.ts';
export { SvgError, type XmlElement } from './svg/xml.ts';
export { layoutText, type TextFit, type TextLayout } from './text/layout-text.ts';
export type * from './types.ts';

/**
 * Image sources a page draws (background and visible image elements, inside groups too), each
 * once. An element inside a hidden or fully transparent group is not drawn, so not loaded.
 */
export function pageImageSources(page: Page): string[] {
  const sources = new Set<string>();
  if (isImageBackground(page.background)) sources.add(page.background.src);
  for (const { element, ancestors } of walkElements(page.elements)) {
    if (element.type !== 'image' || !element.visible || element.opacity <= 0) continue;
    if (ancestors.every((group) => group.visible && group.opacity > 0)) sources.add(element.src);
  }
  return [...sources];
}
