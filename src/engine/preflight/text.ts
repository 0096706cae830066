/**
 * Text checks from the element's own layout (the one the render draws): whether it fits its box,
 * whether maxLines cut it, and which of its characters no font of its family chain covers. The
 * chain is read from each run's font, so fallbacks (emoji, Noto, DejaVu, CJK) count as coverage,
 * as they do when Skia draws.
 */
import type { TextElement } from '../../design/index.ts';
import type { TextLayout } from '../layout/index.ts';
import type { CharacterSet } from './coverage.ts';
import { finding, type PreflightFinding } from './findings.ts';
import { codePointLabel, needsGlyph, scriptOf } from './scripts.ts';

/** Characters listed per script in a finding's details (the count says how many more there were). */
const LISTED_PER_SCRIPT = 20;

/** Family names of a CSS font shorthand as layout writes it (each quoted). */
export function familiesOf(font: string): string[] {
  return [...font.matchAll(/"([^"]*)"/g)].map((match) => match[1] as string);
}

export function fitFindings(pageId: string, el: TextElement, layout: TextLayout): PreflightFinding[] {
  const where = { pageId, elementId: el.id };
  const { fit } = layout;
  const findings: PreflightFinding[] = [];
  const tall = fit.height > el.height + 0.01;
  if (el.autoFit === 'shrink' && !fit.fits) {
    const min = Math.min(el.minFontSize, el.fontSize);
    findings.push(
      finding(
        'text-below-min-size',
        where,
        `The text does not fit its box even at minFontSize ${min}: auto-fit would have to go smaller.`,
        { minFontSize: min, height: round(fit.height), boxHeight: el.height, brokeWord: fit.brokeWord },
      ),
    );
  } else if (tall) {
    findings.push(
      finding(
        'text-overflow',
        where,
        `The text is ${round(fit.height)} tall at ${layout.fontSize}px (${layout.lines.length} lines) in a box ${el.height} tall: it overflows.`,
        {
          height: round(fit.height),
          boxHeight: el.height,
          lines: layout.lines.length,
          fontSize: layout.fontSize,
        },
      ),
    );
  } else if (fit.brokeWord) {
    findings.push(
      finding('text-overflow', where, 'A word is wider than the box and is broken inside.', {
        fontSize: layout.fontSize,
        boxWidth: el.width,
      }),
    );
  }
  if (fit.truncated)
    findings.push(
      finding(
        'text-truncated',
        where,
        `maxLines ${el.maxLines} cuts the text: the lines after it are not drawn.`,
        {
          maxLines: el.maxLines,
          fontSize: layout.fontSize,
        },
      ),
    );
  return findings;
}

export function glyphFindings(
  pageId: string,
  el: TextElement,
  layout: TextLayout,
  covered: (family: string) => CharacterSet,
): PreflightFinding[] {
  // Script → the missing characters, each once.
  const missing = new Map<string, Set<string>>();
  for (const run of layout.runs) {
    const sets = familiesOf(run.font).map(covered);
    for (const char of run.text) {
      if (!needsGlyph(char)) continue;
      const codePoint = char.codePointAt(0) as number;
      if (sets.some((set) => set.has(codePoint))) continue;
      const script = scriptOf(char);
      const chars = missing.get(script) ?? new Set<string>();
      chars.add(char);
      missing.set(script, chars);
    }
  }
  return [...missing].map(([script, chars]) => {
    const listed = [...chars].slice(0, LISTED_PER_SCRIPT);
    return finding(
      'missing-glyphs',
      { pageId, elementId: el.id },
      `No available font has ${script} characters ${listed.join(' ')}${chars.size > listed.length ? ' …' : ''}: they would show as boxes. Upload a font that covers them.`,
      { script, characters: listed, codePoints: listed.map(codePointLabel), count: chars.size },
    );
  });
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
