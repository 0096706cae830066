/**
 * Preflight of one page as a render would draw it: its images loaded (failures reported), laid out
 * by the render's own layout, then each drawn element checked where it ends up on the page: text
 * fit, glyph coverage and contrast, image resolution, and the page's edges. Hidden elements are not
 * checked: they draw nothing.
 */
import type { Page } from '../../design/index.ts';
import { mapElements, walkElements } from '../../design/index.ts';
import type { SourceContext } from '../backends/image-sources.ts';
import { preparePage, processMeasurer } from '../backends/prepare.ts';
import { RenderError } from '../errors.ts';
import type { FontCatalog, TextLayout } from '../layout/index.ts';
import type { OutputFormat } from '../types.ts';
import { contrastCanvas, contrastFindings } from './beneath.ts';
import type { CharacterSet } from './coverage.ts';
import { drawnElements, mappedBounds } from './drawn.ts';
import { finding, type PreflightFinding } from './findings.ts';
import type { ImageLoads } from './image-loads.ts';
import { loadOrReport, resolutionFindings } from './images.ts';
import { fitFindings, glyphFindings } from './text.ts';

export interface PageCheck {
  page: Page;
  fonts: FontCatalog;
  covered: (family: string) => CharacterSet;
  output: { format: OutputFormat; scale: number };
  source: SourceContext;
  loads: ImageLoads;
}

/** A whole-page unit of tolerance: anti-aliasing and rounding, not a design choice. */
const EDGE = 0.5;

export async function checkPage(check: PageCheck): Promise<PreflightFinding[]> {
  const findings: PreflightFinding[] = [];
  const { fonts, source, output } = check;
  // Video clips are checked by the service (their assets and kinds), not decoded here.
  const page = withoutVideos(await loadOrReport(check.page, check.loads, findings));
  const { canvas, scale } = contrastCanvas(page);
  const textLayouts = new Map<string, TextLayout>();
  let prepared: Awaited<ReturnType<typeof preparePage>>;
  try {
    prepared = await preparePage(page, fonts, source, scale, undefined, textLayouts);
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    const details = error.details;
    findings.push(
      finding(
        'render-failed',
        { pageId: page.id, elementId: details.elementId ?? null },
        `The render would fail: ${details.reason}.`,
        { reason: details.reason },
      ),
    );
    return findings;
  }
  const drawn = drawnElements(prepared.layout.ops);
  const measurer = processMeasurer();
  for (const { element } of walkElements(page.elements)) {
    const placed = drawn.get(element.id);
    if (!placed) continue;
    const where = { pageId: page.id, elementId: element.id };
    const local =
      element.type === 'group'
        ? { x: 0, y: 0, width: element.width, height: element.height }
        : { x: element.x, y: element.y, width: element.width, height: element.height };
    const bounds = mappedBounds(placed.matrix, local);
    const inside =
      bounds.x >= -EDGE &&
      bounds.y >= -EDGE &&
      bounds.x + bounds.width <= page.width + EDGE &&
      bounds.y + bounds.height <= page.height + EDGE;
    const visible =
      bounds.x < page.width &&
      bounds.y < page.height &&
      bounds.x + bounds.width > 0 &&
      bounds.y + bounds.height > 0;
    if (!visible)
      findings.push(
        finding('outside-page', where, 'The element is entirely outside the page: it will not be seen.', {
          bounds,
        }),
      );
    else if (!inside)
      findings.push(
        finding(
          'outside-page',
          where,
          element.type === 'text'
            ? 'The text box reaches past the page edge: text there is cut off.'
            : 'The element reaches past the page edge and is cut off there.',
          { bounds },
          // A shape or photo bleeding off the edge is often meant; text cut by it rarely is.
          element.type === 'text' ? 'warning' : 'info',
        ),
      );
    if (element.type === 'image')
      findings.push(...resolutionFindings(page.id, element.id, placed, prepared.images, output));
    const layout = element.type === 'text' ? textLayouts.get(element.id) : undefined;
    if (element.type !== 'text' || !layout) continue;
    findings.push(...fitFindings(page.id, element, layout));
    findings.push(...glyphFindings(page.id, element, layout, check.covered));
    if (visible)
      findings.push(
        ...contrastFindings({
          pageId: page.id,
          el: element,
          layout,
          drawn: placed,
          prepared,
          canvas,
          scale,
          measurer,
        }),
      );
  }
  canvas.width = 1;
  canvas.height = 1;
  return findings;
}

function withoutVideos(page: Page): Page {
  return {
    ...page,
    elements: mapElements(page.elements, (element) =>
      element.type === 'video' ? { ...element, visible: false } : element,
    ),
  };
}
