/**
 * Image checks: sources that cannot be loaded (each element naming one gets a finding, and is left
 * out of the other checks as the render could not draw it), and bitmaps drawn larger than their
 * pixels allow for the output. For a PDF that is 150 dpi, the usual least for print (a page unit is
 * a point, 1/72 inch); for pictures and videos, one source pixel per output pixel: beyond that the
 * image is enlarged and looks soft.
 */
import { isImageBackground, mapElements, type Page, walkElements } from '../../design/index.ts';
import type { LoadedImage } from '../backends/images.ts';
import { pageImageSources } from '../layout/index.ts';
import type { OutputFormat } from '../types.ts';
import type { DrawnElement } from './drawn.ts';
import { finding, type PreflightFinding } from './findings.ts';
import type { ImageLoads } from './image-loads.ts';

export const PDF_MIN_DPI = 150;

/** A reason as the end of a sentence: with one full stop. */
const sentence = (reason: string): string => `${reason.replace(/\.+$/, '')}.`;
const POINTS_PER_INCH = 72;

/** Loads the page's images; those that fail are reported and the page returned without them. */
export async function loadOrReport(
  page: Page,
  loads: ImageLoads,
  findings: PreflightFinding[],
): Promise<Page> {
  const failed = new Map<string, string>();
  await Promise.all(
    pageImageSources(page).map(async (src) => {
      const reason = await loads.outcome(src);
      if (reason !== null) failed.set(src, reason);
    }),
  );
  if (failed.size === 0) return page;
  const background = isImageBackground(page.background) ? failed.get(page.background.src) : undefined;
  if (background !== undefined)
    findings.push(
      finding(
        'image-failed',
        { pageId: page.id, elementId: null },
        `The page background image cannot be loaded: ${sentence(background)}`,
        {
          reason: background,
        },
      ),
    );
  for (const { element } of walkElements(page.elements)) {
    const reason = element.type === 'image' ? failed.get(element.src) : undefined;
    if (reason === undefined) continue;
    findings.push(
      finding(
        'image-failed',
        { pageId: page.id, elementId: element.id },
        `The image cannot be loaded: ${sentence(reason)}`,
        {
          reason,
        },
      ),
    );
  }
  return {
    ...page,
    background: background !== undefined ? '#00000000' : page.background,
    elements: mapElements(page.elements, (element) =>
      element.type === 'image' && failed.has(element.src) ? { ...element, visible: false } : element,
    ),
  };
}

export function resolutionFindings(
  pageId: string,
  elementId: string,
  drawn: DrawnElement,
  images: ReadonlyMap<string, LoadedImage>,
  output: { format: OutputFormat; scale: number },
): PreflightFinding[] {
  const findings: PreflightFinding[] = [];
  for (const op of drawn.images) {
    const image = images.get(op.key);
    if (image?.kind !== 'bitmap' || op.width <= 0) continue;
    // How large the whole image is drawn on the page (its crop and fit included), in page units.
    const pageScale = Math.hypot(drawn.matrix[0], drawn.matrix[1]);
    const drawnWidth = op.width * pageScale;
    const perUnit = image.width / drawnWidth;
    const where = { pageId, elementId };
    if (output.format === 'pdf') {
      const dpi = perUnit * POINTS_PER_INCH;
      if (dpi < PDF_MIN_DPI)
        findings.push(
          finding(
            'low-resolution',
            where,
            `The image prints at ${Math.round(dpi)} dpi; a PDF wants at least ${PDF_MIN_DPI} dpi: it will look blurry on paper.`,
            {
              effectiveDpi: Math.round(dpi),
              requiredDpi: PDF_MIN_DPI,
              imageWidth: image.width,
              imageHeight: image.height,
            },
          ),
        );
      continue;
    }
    const enlargement = output.scale / perUnit;
    if (enlargement > 1.01)
      findings.push(
        finding(
          'low-resolution',
          where,
          `The image is enlarged ${enlargement.toFixed(1)}× in this ${output.format.toUpperCase()} (its ${image.width} px are drawn over ${Math.round(drawnWidth * output.scale)} px): it will look soft.`,
          {
            enlargement: Math.round(enlargement * 100) / 100,
            imageWidth: image.width,
            imageHeight: image.height,
            drawnWidth: Math.round(drawnWidth * output.scale),
          },
        ),
      );
  }
  return findings;
}
