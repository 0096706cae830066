/**
 * `npm run bench:render`: warm render latency through the render pool (JPEG, PNG 1080x1080 and a
 * 5-page PDF), pool throughput, peak RSS and a per-stage breakdown, side by side in the same run
 * with headless Chromium screenshotting equivalent HTML. Prints a table and writes
 * bench/results/render.json, with takumi and Chromium served over HTTP against Platen's service
 * (head-to-head.ts) in the same file. Then the video benchmark (video.ts: MP4 and GIF against Chromium
 * recording and takumi), which writes bench/results/video.json. `--quick` runs a few iterations
 * and 1 s of video (CI smoke).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createCanvas } from '@napi-rs/canvas';
import bwipjs from 'bwip-js';
import { applyModifications, type DesignDocument, parseDesignDocument } from '../src/design/index.ts';
import { fontCatalogFor } from '../src/engine/backends/fonts.ts';
import { preparePage } from '../src/engine/backends/prepare.ts';
import { drawPageOnto } from '../src/engine/backends/raster.ts';
import { encodeStriped } from '../src/engine/backends/striped.ts';
import { type OutputFormat, type RenderJob, RenderPool } from '../src/engine/index.ts';
import { chromiumLatency, chromiumLatencyOf } from './chromium.ts';
import { benchDocument, photoDataUri, richDocument, socialPost } from './designs.ts';
import { formatHeadToHead, headToHead } from './head-to-head.ts';
import { childPeaksMb, statusMb } from './proc.ts';
import { chromiumRichHtml } from './render-html.ts';
import { type Stat, stat, timed } from './stats.ts';
import { videoBench } from './video.ts';

const quick = process.argv.includes('--quick');
const iterations = quick ? 8 : 60;
const warmups = quick ? 3 : 10;

function parse(raw: unknown): DesignDocument {
  const parsed = parseDesignDocument(raw);
  if (!parsed.ok) throw new Error(`bench design is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

const rssNowMb = (): number => statusMb('self', 'VmRSS');
const peakRssMb = (): number => statusMb('self', 'VmHWM');

const jobOf = (
  document: DesignDocument,
  format: OutputFormat,
  pageIds = [document.activePageId],
  cacheKey?: string,
): RenderJob => ({
  document,
  pageIds,
  format,
  quality: 90,
  workspaceId: 'ws_bench',
  assets: {},
  fonts: [],
  ...(cacheKey ? { cacheKey } : {}),
});

/** The benchmark design with only its headline changed, as a render with modifications would have it. */
function withHeadline(document: DesignDocument, i: number): DesignDocument {
  const modified = applyModifications(document, { headline: `Summer sale, take ${i}` });
  if (!modified.ok) throw new Error('headline modification refused');
  return modified.document;
}

/** Where one warm in-process render spends its time (main thread, same code as a render process). */
async function breakdown(document: DesignDocument): Promise<Record<string, Stat>> {
  const page = document.pages[0];
  if (!page) throw new Error('no page');
  const fonts = fontCatalogFor('ws_bench', []);
  const names = ['prepare', 'draw', 'jpegWhole', 'pngWhole', 'jpegHeadline', 'pngHeadline'] as const;
  const parts = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
    (typeof names)[number],
    number[]
  >;
  const canvas = createCanvas(1080, 1080);
  const encode = async (
    prepared: Awaited<ReturnType<typeof preparePage>>,
    format: 'jpeg' | 'png',
    key?: string,
  ) => {
    const started = performance.now();
    await encodeStriped(canvas, prepared, {
      format,
      scale: 1,
      quality: 90,
      opaque: true,
      ...(key ? { baseKey: key } : {}),
    });
    return performance.now() - started;
  };
  for (let i = 0; i < warmups + iterations; i++) {
    const headlined = withHeadline(document, i).pages[0] ?? page;
    let t = performance.now();
    const prepared = await preparePage(headlined, fonts, { assets: {}, allowPrivateUrls: false }, 1);
    const prepare = performance.now() - t;
    t = performance.now();
    drawPageOnto(canvas, prepared, page.id, 1, true);
    const draw = performance.now() - t;
    const sample = {
      prepare,
      draw,
      jpegWhole: await encode(prepared, 'jpeg'),
      pngWhole: await encode(prepared, 'png'),
      jpegHeadline: await encode(prepared, 'jpeg', 'stage'),
      pngHeadline: await encode(prepared, 'png', 'stage'),
    };
    if (i >= warmups) for (const name of names) parts[name].push(sample[name]);
  }
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, stat(v)]));
}

/**
 * Warm latency through the pool: the headline changing between renders of one template (the
 * incremental case), the same page without a base (whole page, strips in parallel), and a new
 * photo every time (nothing to reuse: decoding, scaling and every strip paid each time).
 */
async function poolLatency(
  pool: RenderPool,
  single: DesignDocument,
  five: DesignDocument,
  photos: DesignDocument[],
) {
  const headline = (format: OutputFormat) => (i: number) =>
    pool.render(jobOf(withHeadline(single, i), format, undefined, 'tpl_bench'));
  const fresh = (format: OutputFormat) => (i: number) =>
    pool.render(jobOf(photos[i % photos.length] as DesignDocument, format, undefined, 'tpl_photos'));
  const n = iterations;
  const result = {
    jpeg: await timed(n, warmups, headline('jpeg')),
    png: await timed(n, warmups, headline('png')),
    pdf: await timed(n, warmups, headline('pdf')),
    jpegWhole: await timed(n, warmups, () => pool.render(jobOf(single, 'jpeg'))),
    pngWhole: await timed(n, warmups, () => pool.render(jobOf(single, 'png'))),
    jpegNewPhoto: await timed(Math.min(n, photos.length - warmups), warmups, fresh('jpeg')),
    pngNewPhoto: await timed(Math.min(n, photos.length - warmups), warmups, fresh('png')),
    pdfNewPhoto: await timed(Math.min(n, photos.length - warmups), warmups, fresh('pdf')),
  };
  const pdfPages = five.pages.map((p) => p.id);
  const pdf5 = await timed(Math.ceil(n / 2), warmups, () => pool.render(jobOf(five, 'pdf', pdfPages)));
  const pdfPerPage = {
    median: Number((pdf5.median / 5).toFixed(2)),
    p95: Number((pdf5.p95 / 5).toFixed(2)),
    n: pdf5.n,
  };
  return { ...result, pdf5, pdfPerPage };
}

/** The version 2 design (richPost), its headline changing between renders, as the headline figures. */
async function richLatency(pool: RenderPool, rich: DesignDocument) {
  const headline = (format: OutputFormat) => (i: number) =>
    pool.render(jobOf(withHeadline(rich, i), format, undefined, 'tpl_rich'));
  return {
    jpeg: await timed(iterations, warmups, headline('jpeg')),
    png: await timed(iterations, warmups, headline('png')),
    pdf: await timed(iterations, warmups, headline('pdf')),
  };
}

async function poolThroughput(pool: RenderPool, single: DesignDocument, workers: number): Promise<number> {
  const count = quick ? 30 : 300;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers * 2 }, async () => {
      while (next++ < count)
        await pool.render(jobOf(withHeadline(single, next), 'jpeg', undefined, 'tpl_rate'));
    }),
  );
  return Number((count / ((performance.now() - started) / 1000)).toFixed(1));
}

async function main(): Promise<void> {
  const workers = availableParallelism();
  const photo = await photoDataUri();
  const single = parse(benchDocument(photo, 1));
  const five = parse(benchDocument(photo, 5));
  const photoCount = warmups + iterations;
  const photos: DesignDocument[] = [];
  for (let seed = 1; seed <= photoCount; seed++)
    photos.push(parse(benchDocument(await photoDataUri(1600, 1200, seed), 1)));
  // The pool runs first, so this process's peak is the script's own plus the pool's bookkeeping.
  const baselineMb = rssNowMb();
  const pool = new RenderPool({ workers, maxQueue: 1024, timeoutMs: 30_000 });
  await pool.warmup();
  const latency = await poolLatency(pool, single, five, photos);
  const rich = parse(richDocument(photo));
  const richPlaten = await richLatency(pool, rich);
  const rendersPerSecond = await poolThroughput(pool, single, workers);
  const caches = pool.cacheStats();
  // The render processes are children: their peaks are their own (read before close() ends them).
  const processPeaksMb = childPeaksMb(process.pid);
  await pool.close();
  const rssMb = peakRssMb();
  const poolRssMb = processPeaksMb.reduce((a, b) => a + b, 0);
  const stages = await breakdown(single);

  const browser = await chromiumLatency(photo, iterations, warmups);
  const barcodeSvg = bwipjs.toSVG({ bcid: 'code128', text: 'PLATEN-2026', includetext: true });
  const richBrowser = await chromiumLatencyOf(
    chromiumRichHtml(photo, barcodeSvg),
    'headline-text',
    iterations,
    warmups,
  );
  const ratio = (ours: Stat, theirs: Stat) => Number((theirs.median / ours.median).toFixed(2));
  const speedup = {
    jpeg: ratio(latency.jpeg, browser.jpeg),
    png: ratio(latency.png, browser.png),
    pdf: ratio(latency.pdf, browser.pdf),
    jpegNewPhoto: ratio(latency.jpegNewPhoto, browser.jpeg),
    pngNewPhoto: ratio(latency.pngNewPhoto, browser.png),
    pdfNewPhoto: ratio(latency.pdfNewPhoto, browser.pdf),
    richJpeg: ratio(richPlaten.jpeg, richBrowser.jpeg),
    richPng: ratio(richPlaten.png, richBrowser.png),
    richPdf: ratio(richPlaten.pdf, richBrowser.pdf),
  };
  const results = {
    date: new Date().toISOString(),
    quick,
    machine: { cores: workers, node: process.version },
    design: { size: '1080x1080', parts: socialPost.name, photo: '1600x1200 JPEG, generated' },
    platen: {
      ...latency,
      rendersPerSecond,
      peakRssMb: rssMb,
      baselineRssMb: baselineMb,
      poolRssMb,
      renderProcesses: processPeaksMb.length,
      stages,
      caches,
    },
    chromium: browser,
    rich: {
      design:
        'richPost: cropped filtered photo, gradient card with shadow, rotated badge group with shadow, rich-text gradient headline, Code 128 barcode',
      platen: richPlaten,
      chromium: richBrowser,
    },
    speedup,
  };
  const rows: [string, string, string, string][] = [
    ['what (pool, warm)', 'median ms', 'p95 ms', 'n'],
    ['JPEG, headline changes', ...fmt(latency.jpeg)],
    ['JPEG, new photo each time', ...fmt(latency.jpegNewPhoto)],
    ['JPEG, whole page (no base)', ...fmt(latency.jpegWhole)],
    ['chromium JPEG screenshot', ...fmt(browser.jpeg)],
    ['PNG, headline changes', ...fmt(latency.png)],
    ['PNG, new photo each time', ...fmt(latency.pngNewPhoto)],
    ['PNG, whole page (no base)', ...fmt(latency.pngWhole)],
    ['chromium PNG screenshot', ...fmt(browser.png)],
    ['PDF page, headline changes', ...fmt(latency.pdf)],
    ['PDF page, new photo each time', ...fmt(latency.pdfNewPhoto)],
    ['chromium PDF (page.pdf)', ...fmt(browser.pdf)],
    ['PDF 5 pages', ...fmt(latency.pdf5)],
    ['v2 design JPEG, headline changes', ...fmt(richPlaten.jpeg)],
    ['chromium v2 design JPEG', ...fmt(richBrowser.jpeg)],
    ['v2 design PNG, headline changes', ...fmt(richPlaten.png)],
    ['chromium v2 design PNG', ...fmt(richBrowser.png)],
    ['v2 design PDF, headline changes', ...fmt(richPlaten.pdf)],
    ['chromium v2 design PDF', ...fmt(richBrowser.pdf)],
    ...Object.entries(stages).map(([k, v]): [string, string, string, string] => [
      `  in process: ${k}`,
      ...fmt(v),
    ]),
  ];
  for (const row of rows)
    console.log(`${row[0].padEnd(32)} ${row[1].padStart(10)} ${row[2].padStart(10)} ${row[3].padStart(5)}`);
  console.log(`pool throughput (JPEG, headline changes, ${workers} workers): ${rendersPerSecond} renders/s`);
  console.log(
    `peak RSS ${rssMb} MB for this process (${baselineMb} MB before the pool started); render processes ${processPeaksMb.join(' + ')} = ${poolRssMb} MB`,
  );
  console.log(
    `speed-up over Chromium: JPEG ${speedup.jpeg}x (new photo ${speedup.jpegNewPhoto}x), PNG ${speedup.png}x (${speedup.pngNewPhoto}x), PDF ${speedup.pdf}x (${speedup.pdfNewPhoto}x)`,
  );
  console.log(
    `v2 design speed-up over Chromium: JPEG ${speedup.richJpeg}x, PNG ${speedup.richPng}x, PDF ${speedup.richPdf}x`,
  );
  console.log('render process caches (summed over processes):');
  console.table(
    caches.map((c) => ({
      cache: c.name,
      entries: c.entries,
      MB: Number((c.bytes / 2 ** 20).toFixed(1)),
      budgetMB: c.maxBytes === null ? null : c.maxBytes / 2 ** 20,
      hits: c.hits,
      misses: c.misses,
      evictions: c.evictions,
    })),
  );
  // The peers as self-hosters run them, over HTTP from their own processes, against Platen's
  // service, interleaved round by round (head-to-head.ts): the figures the targets are set in.
  const versus = await headToHead({ quick, log: (line) => console.error(line) });
  console.log(`head to head over HTTP, ${versus.rounds} rounds interleaved, medians:`);
  console.log(formatHeadToHead(versus));
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/render.json', import.meta.url),
    `${JSON.stringify({ ...results, headToHead: versus }, null, 2)}\n`,
  );
  console.log('wrote bench/results/render.json');
  await videoBench({ quick });
}

function fmt(s: Stat): [string, string, string] {
  return [s.median.toFixed(1), s.p95.toFixed(1), String(s.n)];
}

await main();
