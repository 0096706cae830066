/**
 * `npm run bench:recycling [-- --quick]`: a render process's memory under a stream of new photos.
 * One render process renders rounds of four: the benchmark template as JPEG and PNG with its
 * headline changed, then JPEG and PNG with a 1600×1200 photo it has never seen. After each round
 * the process's RSS is read from /proc. What it shows: whether full caches push the process over
 * the recycling limit (PLATEN_RENDER_RECYCLE_RSS_MB, 600 by default), which would replace it with
 * one whose caches are empty (docs/performance.md, "Caches that fit under the recycling limit").
 * Memory, not time: the figures hold on a busy machine. Prints a table, writes
 * bench/results/recycling.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { applyModifications, type DesignDocument, parseDesignDocument } from '../src/design/index.ts';
import { type OutputFormat, type RenderJob, RenderPool } from '../src/engine/index.ts';
import { benchDocument, photoDataUri } from './designs.ts';
import { childrenMb } from './proc.ts';

const quick = process.argv.includes('--quick');
const rounds = quick ? 6 : 40;
const recycleRssMb = Number(process.env.PLATEN_RENDER_RECYCLE_RSS_MB ?? 600);

function parse(raw: unknown): DesignDocument {
  const parsed = parseDesignDocument(raw);
  if (!parsed.ok) throw new Error(`bench design is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

function withHeadline(document: DesignDocument, headline: string): DesignDocument {
  const modified = applyModifications(document, { headline });
  if (!modified.ok) throw new Error('headline modification refused');
  return modified.document;
}

const jobOf = (document: DesignDocument, format: OutputFormat): RenderJob => ({
  document,
  pageIds: [document.activePageId],
  format,
  quality: 90,
  workspaceId: 'ws_bench',
  assets: {},
  fonts: [],
  cacheKey: 'tpl_bench',
});

async function main(): Promise<void> {
  const pool = new RenderPool({ workers: 1, recycleRssMb });
  await pool.warmup();
  const template = parse(benchDocument(await photoDataUri(), 1));
  const rss: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const photo = parse(benchDocument(await photoDataUri(1600, 1200, 1000 + round), 1));
    await pool.render(jobOf(withHeadline(template, `Summer sale, take ${round}`), 'jpeg'));
    await pool.render(jobOf(withHeadline(template, `Summer sale, take ${round}!`), 'png'));
    await pool.render(jobOf(photo, 'jpeg'));
    await pool.render(jobOf(photo, 'png'));
    // The render process is this process's largest child (tsx's esbuild is the other).
    rss.push(Math.max(0, ...childrenMb(process.pid, 'VmRSS')));
  }
  const caches = Object.fromEntries(
    pool.cacheStats().map((cache) => [cache.name, Math.round(cache.bytes / 2 ** 20)]),
  );
  const { recycled, restarts } = pool.stats();
  await pool.close();

  const shown = rss
    .map((mb, i) => ({ mb, i }))
    .filter(({ i }) => i === 0 || (i + 1) % 5 === 0 || i === rss.length - 1);
  console.log(
    `\nRender process memory, new photos (recycling limit ${recycleRssMb} MB, ${rounds} rounds of 4 renders)\n`,
  );
  console.log('| after round | RSS |\n| ---: | ---: |');
  for (const { mb, i } of shown) console.log(`| ${i + 1} | ${mb} MB |`);
  const held = Object.values(caches).reduce((sum, mb) => sum + mb, 0);
  console.log(`\ncaches held at the end: ${held} MB (${JSON.stringify(caches)})`);
  console.log(`processes replaced for their size: ${recycled} (restarts ${restarts})`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/recycling.json',
    `${JSON.stringify({ recycleRssMb, rounds, rssMbAfterEachRound: rss, cachesMb: caches, recycled, restarts }, null, 2)}\n`,
  );
}

await main();
