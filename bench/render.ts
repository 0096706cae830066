/**
 * `npm run bench:render`: warm render latency through the render pool (JPEG, PNG 1080x1080 and a
 * 5-page PDF), pool throughput, peak RSS and a per-stage breakdown, side by side in the same run
 * with headless Chromium screenshotting equivalent HTML. Prints a table and writes
 * bench/results/render.json. `--quick` runs a few iterations (CI smoke).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createCanvas } from '@napi-rs/canvas';
import { chromium } from 'playwright-core';
import { type DesignDocument, parseDesignDocument } from '../src/design/index.ts';
import { fontCatalogFor } from '../src/engine/backends/fonts.ts';
import { preparePage } from '../src/engine/backends/prepare.ts';
import { drawPageOnto } from '../src/engine/backends/raster.ts';
import { type OutputFormat, type RenderJob, RenderPool } from '../src/engine/index.ts';
import { benchDocument, photoDataUri, socialPost } from './designs.ts';
import { chromiumHtml } from './render-html.ts';

const quick = process.argv.includes('--quick');
const iterations = quick ? 8 : 60;
const warmups = quick ? 3 : 10;

interface Stat {
  median: number;
  p95: number;
  n: number;
}

function stat(samples: number[]): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { median: Number(at(0.5).toFixed(2)), p95: Number(at(0.95).toFixed(2)), n: sorted.length };
}

async function timed(n: number, warm: number, fn: (i: number) => Promise<unknown>): Promise<Stat> {
  for (let i = 0; i < warm; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return stat(samples);
}

function parse(raw: unknown): DesignDocument {
  const parsed = parseDesignDocument(raw);
  if (!parsed.ok) throw new Error(`bench design is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

function statusMb(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const rssNowMb = (): number => statusMb('self', 'VmRSS');
const peakRssMb = (): number => statusMb('self', 'VmHWM');

/** Peak RSS of each of this process's render processes (children running render-process, compiled or not). */
function renderProcessPeaksMb(): number[] {
  const peaks: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('render-process')) continue;
      peaks.push(statusMb(Number(name), 'VmHWM'));
    } catch {
      // exited meanwhile
    }
  }
  return peaks;
}

const jobOf = (
  document: DesignDocument,
  format: OutputFormat,
  pageIds = [document.activePageId],
): RenderJob => ({
  document,
  pageIds,
  format,
  quality: 90,
  workspaceId: 'ws_bench',
  assets: {},
  fonts: [],
});

/** Where one warm in-process JPEG render spends its time (main thread, same code as a render process). */
async function breakdown(document: DesignDocument): Promise<Record<string, Stat>> {
  const page = document.pages[0];
  if (!page) throw new Error('no page');
  const fonts = fontCatalogFor('ws_bench', []);
  const parts: Record<string, number[]> = { prepare: [], draw: [], encodeJpeg: [], encodePng: [] };
  const canvas = createCanvas(1080, 1080);
  const { default: sharp } = await import('sharp');
  for (let i = 0; i < warmups + iterations; i++) {
    let t = performance.now();
    const prepared = await preparePage(page, fonts, { assets: {}, allowPrivateUrls: false }, 1);
    const prepare = performance.now() - t;
    t = performance.now();
    drawPageOnto(canvas, prepared, page.id, 1, true);
    const draw = performance.now() - t;
    const raw = sharp(canvas.data(), { raw: { width: 1080, height: 1080, channels: 4 } }).removeAlpha();
    t = performance.now();
    await raw.clone().jpeg({ quality: 90, optimiseCoding: false }).toBuffer();
    const jpeg = performance.now() - t;
    t = performance.now();
    await raw.clone().png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
    const png = performance.now() - t;
    if (i < warmups) continue;
    parts.prepare?.push(prepare);
    parts.draw?.push(draw);
    parts.encodeJpeg?.push(jpeg);
    parts.encodePng?.push(png);
  }
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, stat(v)]));
}

async function poolLatency(pool: RenderPool, single: DesignDocument, five: DesignDocument) {
  const jpeg = await timed(iterations, warmups, () => pool.render(jobOf(single, 'jpeg')));
  const png = await timed(iterations, warmups, () => pool.render(jobOf(single, 'png')));
  const pdfPages = five.pages.map((p) => p.id);
  const pdf5 = await timed(Math.ceil(iterations / 2), warmups, () =>
    pool.render(jobOf(five, 'pdf', pdfPages)),
  );
  const pdfPerPage = {
    median: Number((pdf5.median / 5).toFixed(2)),
    p95: Number((pdf5.p95 / 5).toFixed(2)),
    n: pdf5.n,
  };
  return { jpeg, png, pdf5, pdfPerPage };
}

async function poolThroughput(pool: RenderPool, single: DesignDocument, workers: number): Promise<number> {
  const count = quick ? 30 : 300;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers * 2 }, async () => {
      while (next++ < count) await pool.render(jobOf(single, 'jpeg'));
    }),
  );
  return Number((count / ((performance.now() - started) / 1000)).toFixed(1));
}

async function chromiumLatency(photo: string) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1080, height: 1080 } });
    await page.setContent(chromiumHtml(photo), { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    // Each shot changes the headline, so Chromium lays out and paints again as a new render would.
    const shoot = (type: 'png' | 'jpeg') => async (i: number) => {
      await page.evaluate((n) => {
        const el = document.getElementById('headline');
        if (el) el.textContent = `Summer collection, take ${n}`;
      }, i);
      await page.screenshot(type === 'png' ? { type } : { type, quality: 90 });
    };
    return {
      png: await timed(iterations, warmups, shoot('png')),
      jpeg: await timed(iterations, warmups, shoot('jpeg')),
    };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const workers = availableParallelism();
  const photo = await photoDataUri();
  const single = parse(benchDocument(photo, 1));
  const five = parse(benchDocument(photo, 5));
  // The pool runs first, so this process's peak is the script's own plus the pool's bookkeeping.
  const baselineMb = rssNowMb();
  const pool = new RenderPool({ workers, maxQueue: 1024, timeoutMs: 30_000 });
  await pool.warmup();
  const latency = await poolLatency(pool, single, five);
  const rendersPerSecond = await poolThroughput(pool, single, workers);
  // The render processes are children: their peaks are their own (read before close() ends them).
  const processPeaksMb = renderProcessPeaksMb();
  await pool.close();
  const rssMb = peakRssMb();
  const poolRssMb = processPeaksMb.reduce((a, b) => a + b, 0);
  const stages = await breakdown(single);

  const browser = await chromiumLatency(photo);
  const speedup = (ours: Stat, theirs: Stat) => Number((theirs.median / ours.median).toFixed(2));
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
    },
    chromium: browser,
    speedup: { jpeg: speedup(latency.jpeg, browser.jpeg), png: speedup(latency.png, browser.png) },
    targets: {
      jpegMedianMs: { target: 25, actual: latency.jpeg.median, met: latency.jpeg.median <= 25 },
      pngMedianMs: { target: 60, actual: latency.png.median, met: latency.png.median <= 60 },
      pdfPageMs: { target: 30, actual: latency.pdfPerPage.median, met: latency.pdfPerPage.median <= 30 },
      speedupVsChromium: {
        target: 3,
        jpeg: speedup(latency.jpeg, browser.jpeg),
        png: speedup(latency.png, browser.png),
      },
      peakRssMb: {
        target: 400,
        process: rssMb,
        poolShare: poolRssMb,
        total: rssMb + poolRssMb,
        met: rssMb + poolRssMb < 400,
      },
    },
  };
  const rows: [string, string, string, string][] = [
    ['what', 'median ms', 'p95 ms', 'n'],
    ['platen JPEG 1080² (pool)', ...fmt(latency.jpeg)],
    ['chromium JPEG screenshot', ...fmt(browser.jpeg)],
    ['platen PNG 1080² (pool)', ...fmt(latency.png)],
    ['chromium PNG screenshot', ...fmt(browser.png)],
    ['platen PDF 5 pages (pool)', ...fmt(latency.pdf5)],
    ['platen PDF per page', ...fmt(latency.pdfPerPage)],
    ...Object.entries(stages).map(([k, v]): [string, string, string, string] => [`  stage: ${k}`, ...fmt(v)]),
  ];
  for (const row of rows)
    console.log(`${row[0].padEnd(30)} ${row[1].padStart(10)} ${row[2].padStart(10)} ${row[3].padStart(5)}`);
  console.log(`pool throughput (JPEG, ${workers} workers): ${rendersPerSecond} renders/s`);
  console.log(
    `peak RSS ${rssMb} MB for this process (${baselineMb} MB before the pool started); render processes ${processPeaksMb.join(' + ')} = ${poolRssMb} MB`,
  );
  console.log(`speed-up over Chromium: JPEG ${results.speedup.jpeg}x, PNG ${results.speedup.png}x`);
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/render.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  console.log('wrote bench/results/render.json');
}

function fmt(s: Stat): [string, string, string] {
  return [s.median.toFixed(1), s.p95.toFixed(1), String(s.n)];
}

await main();
