/**
 * `npm run bench:preflight [-- --quick]`: what a preflight costs beside the render it
 * checks, in one process (the work a render process does; the service adds its request and the
 * pool's hand-over, as for a render). For each scenario, rows of the promo card (1080 × 1080, six
 * elements) are preflighted and rendered to PNG with the same values, taking turns; the table gives
 * the milliseconds per row of each and their ratio. Writes bench/results/preflight.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyModifications, parseDesignDocument } from '../src/design/index.ts';
import { preflightInProcess } from '../src/engine/preflight/index.ts';
import { renderInProcess } from '../src/engine/render.ts';
import type { OutputFormat, RenderJob } from '../src/engine/types.ts';
import { stat } from './stats.ts';

const quick = process.argv.includes('--quick');
const rows = quick ? 20 : 200;
const root = new URL('..', import.meta.url).pathname;
const parsed = parseDesignDocument(
  JSON.parse(readFileSync(join(root, 'src/design/fixtures/promo-card.json'), 'utf8')),
);
if (!parsed.ok) throw new Error('the promo card fixture is not valid');
const card = parsed.document;

const scenarios: { name: string; format: OutputFormat; row: (i: number) => Record<string, string> }[] = [
  { name: 'headline per row, PNG', format: 'png', row: (i) => ({ headline: `Summer Sale ${i}` }) },
  { name: 'headline per row, PDF', format: 'pdf', row: (i) => ({ headline: `Summer Sale ${i}` }) },
  {
    name: 'long headline (overflows), PNG',
    format: 'png',
    row: (i) => ({ headline: `${'A headline that goes on and on '.repeat(12)}${i}` }),
  },
  { name: 'mixed scripts, PNG', format: 'png', row: (i) => ({ headline: `Grüße 東京 😀 مرحبا ${i}` }) },
];

const job = (format: OutputFormat): RenderJob => ({
  document: card,
  pageIds: [card.pages[0]?.id ?? ''],
  format,
  workspaceId: 'ws_bench',
  assets: {},
  fonts: [],
});

const results = [];
for (const scenario of scenarios) {
  const preflight: number[] = [];
  const render: number[] = [];
  // Warm-up: fonts, their character sets, and the decoded photo.
  await preflightInProcess(job(scenario.format), { rows: [scenario.row(-1)], until: Date.now() + 60_000 });
  for (let i = 0; i < rows; i++) {
    const values = scenario.row(i);
    let started = performance.now();
    await preflightInProcess(job(scenario.format), { rows: [values], until: Date.now() + 60_000 });
    preflight.push(performance.now() - started);
    const modified = applyModifications(card, values);
    if (!modified.ok) throw new Error('a row is not valid');
    started = performance.now();
    await renderInProcess({ ...job(scenario.format), document: modified.document });
    render.push(performance.now() - started);
  }
  // A batch's rows together: one job, images and fonts loaded once.
  const started = performance.now();
  await preflightInProcess(job(scenario.format), {
    rows: Array.from({ length: rows }, (_, i) => scenario.row(i + rows)),
    until: Date.now() + 600_000,
  });
  const perRowInBatch = (performance.now() - started) / rows;
  const p = stat(preflight);
  const r = stat(render);
  results.push({
    scenario: scenario.name,
    rows,
    preflightMs: p,
    renderMs: r,
    preflightPerRowInOneJobMs: Number(perRowInBatch.toFixed(2)),
    preflightToRender: Number((p.median / r.median).toFixed(2)),
  });
}

console.log('\nPreflight beside the render it checks (ms per row, median / p95)\n');
console.log('| scenario | preflight | in one job of all rows | render | preflight ÷ render |');
console.log('|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.scenario} | ${r.preflightMs.median} / ${r.preflightMs.p95} | ${r.preflightPerRowInOneJobMs} | ${r.renderMs.median} / ${r.renderMs.p95} | ${r.preflightToRender} |`,
  );
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(
  join(root, 'bench/results/preflight.json'),
  `${JSON.stringify({ rows, node: process.version, results }, null, 2)}\n`,
);
