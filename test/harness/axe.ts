/** axe-core in a browser page or frame: the serious and critical violations, each with where it is. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: unknown }[];
}

/** `id [targets]` of each serious or critical violation on the page as it stands now. */
export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  await target.evaluate(axeSource);
  const violations = (await target.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(d: Document): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}
