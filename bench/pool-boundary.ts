/**
 * `node --import tsx bench/pool-boundary.ts [--quick]`: what the render pool's boundary costs one
 * render. The benchmark design (bench/designs.ts) is rendered N times one at a time, alternately
 * in this process and through a RenderPool of one process, as JPEG and PNG, with its photo as an
 * asset (bytes in the job, as the service sends it) and as a data URI in the document (as
 * bench:render does). The pool's extra time per render is the job crossing in, the encoded file
 * crossing back and the wake-ups on both sides. A job naming a missing page measures the trip
 * alone (job in, a small error out, no rendering). Last, the transport alone, process against
 * thread: the same bytes echoed through a forked process (`serialization: 'advanced'`, as the pool
 * does) and through a worker thread (as the piscina pool did). Rendering times are noisy on a
 * shared machine; the trip and transport figures are the stable ones. Prints tables, writes
 * bench/results/pool-boundary.json.
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type DesignDocument, parseDesignDocument } from '../src/design/index.ts';
import { renderInProcess } from '../src/engine/in-process.ts';
import { type RenderJob, RenderPool } from '../src/engine/index.ts';
import { benchDocument, photoJpeg } from './designs.ts';

const quick = process.argv.includes('--quick');
const iterations = quick ? 10 : 80;
const warmups = quick ? 3 : 10;
const PHOTO_ID = 'ast_benchphoto';

function parse(raw: unknown): DesignDocument {
  const parsed = parseDesignDocument(raw);
  if (!parsed.ok) throw new Error(`bench design is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.floor(sorted.length / 2)] ?? Number.NaN).toFixed(2));
};

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

interface Row {
  case: string;
  jobBytes: number;
  fileBytes: number;
  inProcessMs: number;
  poolMs: number;
  boundaryMs: number;
}

/** Alternates in-process and pooled renders of one job; the boundary is the median pairwise gap. */
async function compare(pool: RenderPool, name: string, job: RenderJob, jobBytes: number): Promise<Row> {
  for (let i = 0; i < warmups; i++) {
    await renderInProcess(job);
    await pool.render(job);
  }
  const local: number[] = [];
  const pooled: number[] = [];
  const gaps: number[] = [];
  let fileBytes = 0;
  for (let i = 0; i < iterations; i++) {
    const a = await time(() => renderInProcess(job));
    const b = await time(async () => {
      const [file] = await pool.render(job);
      fileBytes = file?.bytes.byteLength ?? 0;
    });
    local.push(a);
    pooled.push(b);
    gaps.push(b - a);
  }
  return {
    case: name,
    jobBytes,
    fileBytes,
    inProcessMs: median(local),
    poolMs: median(pooled),
    boundaryMs: median(gaps),
  };
}

/** The trip alone: a job the process refuses before rendering (unknown page) comes back as an error. */
async function roundTrip(pool: RenderPool, job: RenderJob): Promise<number> {
  const refused = { ...job, pageIds: ['missing'] };
  const samples: number[] = [];
  for (let i = 0; i < warmups + iterations; i++) {
    const ms = await time(() => pool.render(refused).catch(() => undefined));
    if (i >= warmups) samples.push(ms);
  }
  return median(samples);
}

/** Echo peers for the transport comparison: each answers a message with `out` bytes. */
const ECHO_THREAD = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => parentPort.postMessage({ bytes: new Uint8Array(m.out) }));
`;

async function transport(): Promise<Record<string, { processMs: number; threadMs: number }>> {
  const child = fork(new URL(import.meta.url), ['--echo'], { serialization: 'advanced' });
  const thread = new Worker(ECHO_THREAD, { eval: true });
  const viaProcess = (message: object) =>
    new Promise((resolve) => {
      child.once('message', resolve);
      child.send(message);
    });
  const viaThread = (message: object) =>
    new Promise((resolve) => {
      thread.once('message', resolve);
      thread.postMessage(message);
    });
  const results: Record<string, { processMs: number; threadMs: number }> = {};
  try {
    for (const [inKb, outKb] of [
      [566, 301],
      [566, 2865],
      [20_480, 301],
    ] as const) {
      const message = { job: new Uint8Array(inKb * 1024), out: outKb * 1024 };
      const samples = { process: [] as number[], thread: [] as number[] };
      for (let i = 0; i < warmups + iterations; i++) {
        const p = await time(() => viaProcess(message));
        const t = await time(() => viaThread(message));
        if (i < warmups) continue;
        samples.process.push(p);
        samples.thread.push(t);
      }
      results[`${inKb} KB in, ${outKb} KB out`] = {
        processMs: median(samples.process),
        threadMs: median(samples.thread),
      };
    }
  } finally {
    child.kill();
    await thread.terminate();
  }
  return results;
}

async function main(): Promise<void> {
  const photo = await photoJpeg();
  const dataUri = `data:image/jpeg;base64,${photo.toString('base64')}`;
  const asAsset = parse(benchDocument(`asset:${PHOTO_ID}`));
  const asDataUri = parse(benchDocument(dataUri));
  const base = { pageIds: [asAsset.activePageId], workspaceId: 'ws_bench', fonts: [], quality: 90 };
  const assets = { [PHOTO_ID]: { bytes: new Uint8Array(photo), mimeType: 'image/jpeg' } };
  const assetJob = (format: 'jpeg' | 'png'): RenderJob => ({ ...base, document: asAsset, format, assets });
  const uriJob = (format: 'jpeg' | 'png'): RenderJob => ({
    ...base,
    document: asDataUri,
    format,
    assets: {},
  });

  const pool = new RenderPool({ workers: 1, timeoutMs: 60_000 });
  try {
    await pool.warmup();
    const rows = [
      await compare(pool, 'JPEG, photo as asset', assetJob('jpeg'), photo.byteLength),
      await compare(pool, 'PNG, photo as asset', assetJob('png'), photo.byteLength),
      await compare(pool, 'JPEG, photo as data URI', uriJob('jpeg'), dataUri.length),
    ];
    const tripAssetMs = await roundTrip(pool, assetJob('jpeg'));
    const tripUriMs = await roundTrip(pool, uriJob('jpeg'));
    console.log(
      `${'case'.padEnd(26)} ${'job KB'.padStart(7)} ${'file KB'.padStart(8)} ${'in process'.padStart(11)} ${'pool'.padStart(8)} ${'boundary'.padStart(9)}`,
    );
    for (const r of rows) {
      console.log(
        `${r.case.padEnd(26)} ${String(Math.round(r.jobBytes / 1024)).padStart(7)} ${String(Math.round(r.fileBytes / 1024)).padStart(8)} ${r.inProcessMs.toFixed(1).padStart(11)} ${r.poolMs.toFixed(1).padStart(8)} ${r.boundaryMs.toFixed(1).padStart(9)}`,
      );
    }
    console.log(`trip alone (job in, error out): asset ${tripAssetMs} ms, data URI ${tripUriMs} ms`);
    console.log(`medians of ${iterations} renders each; boundary = median of (pool - in process) per pair`);
    const echo = await transport();
    for (const [what, r] of Object.entries(echo))
      console.log(`transport ${what.padEnd(24)} process ${r.processMs} ms, thread ${r.threadMs} ms`);
    const results = {
      date: new Date().toISOString(),
      quick,
      node: process.version,
      iterations,
      rows,
      tripAloneMs: { asset: tripAssetMs, dataUri: tripUriMs },
      transport: echo,
    };
    mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
    writeFileSync(
      new URL('./results/pool-boundary.json', import.meta.url),
      `${JSON.stringify(results, null, 2)}\n`,
    );
    console.log('wrote bench/results/pool-boundary.json');
  } finally {
    await pool.close();
  }
}

if (process.argv.includes('--echo')) {
  process.on('message', (m: { out: number }) => process.send?.({ bytes: new Uint8Array(m.out) }));
} else {
  await main();
}
