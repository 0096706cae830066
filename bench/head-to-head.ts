/**
 * Head to head: Platen's real service against takumi and Chromium, each served the way a
 * self-hoster would run it, over HTTP from its own process (peers/protocol.ts), all drawing the
 * benchmark post (designs.ts benchDocument; its HTML twin render-html.ts chromiumHtml).
 *
 * Four cases: JPEG and PNG with the headline changing, and JPEG and PNG with the headline and a
 * photo never rendered before. Interleaved round by round: in each round every contender renders
 * one request of each case, the contender going first rotating every round, so a slow spell of the
 * machine falls on all alike. One client, sequential; each request timed end to end over HTTP,
 * body read, and started on a quiet machine (quiet.ts): what the previous contender left running
 * after it answered is not timed in the next one's request (`--no-settle` times back to back).
 * Platen's route answers JSON with the stored file's URL; fetching that file afterwards is timed
 * apart (`platenWithDownload`), the peers send the image itself.
 *
 * `node --import tsx bench/head-to-head.ts [--quick] [--rounds=N] [--no-settle]` prints the table
 * and writes bench/results/head-to-head.json. `--quick` (CI smoke) runs a few rounds;
 * `--images=<dir>` saves each contender's PNG of one headline and one new photo there.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { photoJpeg } from './designs.ts';
import { type PlatenTarget, renderOnPlaten, startPlaten, uploadPlatenAsset } from './peers/platen.ts';
import type { PeerFormat, PeerRenderRequest } from './peers/protocol.ts';
import { type Child, spawnPeer } from './peers/spawn.ts';
import { quietMachine } from './quiet.ts';
import { type Stat, stat } from './stats.ts';

export const CASES = [
  { name: 'jpeg', label: 'JPEG, headline changes', format: 'jpeg', newPhoto: false },
  { name: 'png', label: 'PNG, headline changes', format: 'png', newPhoto: false },
  { name: 'jpegNewPhoto', label: 'JPEG, new photo each time', format: 'jpeg', newPhoto: true },
  { name: 'pngNewPhoto', label: 'PNG, new photo each time', format: 'png', newPhoto: true },
] as const satisfies readonly { name: string; label: string; format: PeerFormat; newPhoto: boolean }[];

export type CaseName = (typeof CASES)[number]['name'];

/** The performance issue's targets: how many times longer each peer may take than Platen, at least. */
export const TARGETS: Record<CaseName, { takumi: number; chromium: number }> = {
  jpeg: { chromium: 6, takumi: 6 },
  png: { chromium: 20, takumi: 3 },
  jpegNewPhoto: { chromium: 4, takumi: 6 },
  pngNewPhoto: { chromium: 8, takumi: 3 },
};
export const CONTENDERS = ['platen', 'takumi', 'chromium'] as const;
export type ContenderName = (typeof CONTENDERS)[number];

const JPEG_QUALITY = 90;

export interface HeadToHeadOptions {
  /** A few rounds (CI smoke): well under a minute. */
  quick?: boolean;
  /** Measured rounds (default 60, quick 6); each renders every case once per contender. */
  rounds?: number;
  /** Rounds run first and discarded (default 5, quick 2). */
  warmupRounds?: number;
  /**
   * A running Platen service to measure instead of starting one; its template must be
   * benchDocument(`asset:<photoJpeg(1600, 1200, 42)>`) (peers/platen.ts startPlaten makes one).
   * It is not stopped afterwards.
   */
  platen?: PlatenTarget;
  /**
   * The first seed of the new photos (photoJpeg(1600, 1200, seed)), default 1, or 1001 with a
   * given `platen`: a service that has rendered a photo before may hold it decoded, so a caller
   * that rendered seeds 1..k on it passes a seed above k.
   */
  firstPhotoSeed?: number;
  /** Saves each contender's PNG of one headline and of one new photo here, after measuring. */
  saveImagesTo?: string;
  /**
   * Waits before each timed request until the machine has been quiet for 20 ms (quiet.ts), so
   * that work a contender leaves running after it answered is not timed in the next one's
   * request (default true; `--no-settle` measures back to back).
   */
  settle?: boolean;
  /** Progress lines on stderr. */
  log?: (line: string) => void;
}

export interface CaseResult {
  label: string;
  platen: Stat;
  /** Platen's render plus fetching the stored file from the URL it answered. */
  platenWithDownload: Stat;
  takumi: Stat;
  chromium: Stat;
  /**
   * When settling: how long the wait after each contender's request of this case took beyond its
   * final quiet window, in ms (0: quiet at once). Every process in the cgroup counts but the
   * driver; waits that gave up are left out.
   */
  busyAfter?: Record<ContenderName, Stat>;
  /** Peer median / Platen median: how many times longer the peer takes. */
  ratios: { takumi: number; chromium: number };
  /** The targets (TARGETS) and whether this run met them. */
  target: { takumi: number; chromium: number };
  met: { takumi: boolean; chromium: boolean };
}

export interface HeadToHeadResult {
  /** The load averages (1, 5, 15 min) before and after: other work on the machine shows here. */
  machine: { cores: number; cpu: string; node: string; loadBefore: number[]; loadAfter: number[] };
  quick: boolean;
  /**
   * Whether each request waited for a quiet machine (HeadToHeadOptions.settle), how many of those
   * waits gave up (after 1 s; 250 ms when quick), and whether waiting stopped for good after three
   * in a row (the requests after that were timed back to back).
   */
  settled: { enabled: boolean; timedOut: number; abandoned: boolean };
  rounds: number;
  warmupRounds: number;
  newPhotos: number;
  cases: Record<CaseName, CaseResult>;
  setup: Record<ContenderName, string>;
}

interface Rendered {
  ms: number;
  image: () => Promise<Uint8Array>;
  /** Platen only: fetching the stored file after the render answered. */
  downloadMs?: number;
}

interface Contender {
  name: ContenderName;
  upload(bytes: Uint8Array<ArrayBuffer>): Promise<string>;
  render(request: PeerRenderRequest): Promise<Rendered>;
}

function platenContender(target: PlatenTarget): Contender {
  return {
    name: 'platen',
    upload: (bytes) => uploadPlatenAsset(target, bytes),
    async render({ format, headline, photo }) {
      const started = performance.now();
      const result = await renderOnPlaten(target, {
        format,
        ...(format === 'jpeg' ? { quality: JPEG_QUALITY } : {}),
        modifications: { headline, ...(photo ? { photo: `asset:${photo}` } : {}) },
      });
      const ms = performance.now() - started;
      // An identical earlier request would be answered from its stored result: not a render.
      if (result.credits.charged !== 1) throw new Error(`Platen replayed instead of rendering ${headline}`);
      const fetched = performance.now();
      const response = await fetch(result.url);
      if (!response.ok) throw new Error(`${result.url} answered ${response.status}`);
      const image = new Uint8Array(await response.arrayBuffer());
      return { ms, downloadMs: performance.now() - fetched, image: async () => image };
    },
  };
}

function peerContender(name: ContenderName, base: string): Contender {
  return {
    name,
    async upload(bytes) {
      const response = await fetch(`${base}/assets`, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body: bytes,
      });
      if (!response.ok) throw new Error(`${name} upload answered ${response.status}`);
      return ((await response.json()) as { id: string }).id;
    },
    async render(request) {
      const started = performance.now();
      const response = await fetch(`${base}/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...request, quality: JPEG_QUALITY }),
      });
      const body = new Uint8Array(await response.arrayBuffer());
      const ms = performance.now() - started;
      if (response.status !== 200)
        throw new Error(`${name} answered ${response.status}: ${Buffer.from(body).toString()}`);
      return { ms, image: async () => body };
    },
  };
}

function settled<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

/** The children started so far, stopped on the way out: normally, on error, or on a signal. */
async function stopAll(children: Set<Child>) {
  await Promise.allSettled([...children].map((child) => child.stop()));
  children.clear();
}

export async function headToHead(options: HeadToHeadOptions = {}): Promise<HeadToHeadResult> {
  const quick = options.quick ?? false;
  const rounds = options.rounds ?? (quick ? 6 : 60);
  const warmupRounds = options.warmupRounds ?? (quick ? 2 : 5);
  const firstSeed = options.firstPhotoSeed ?? (options.platen ? 1001 : 1);
  const log = options.log ?? (() => undefined);
  // Each new-photo request of a contender gets a photo that contender has never seen.
  const newPhotos = 2 * (rounds + warmupRounds);
  const children = new Set<Child>();
  const onSignal = () => void stopAll(children).then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const loadBefore = loadavg().map((n) => Number(n.toFixed(2)));
  const scratch = mkdtempSync(join(tmpdir(), 'platen-h2h-'));
  try {
    const photo = new Uint8Array(await photoJpeg(1600, 1200, 42));
    const defaultPhotoFile = join(scratch, 'photo-42.jpg');
    writeFileSync(defaultPhotoFile, photo);
    log('starting Platen, takumi and Chromium…');
    const started = await Promise.allSettled([
      options.platen ? Promise.resolve(null) : startPlaten(photo),
      spawnPeer('takumi', 'bench/peers/takumi-server.ts', [defaultPhotoFile]),
      spawnPeer('chromium', 'bench/peers/chromium-server.ts', [defaultPhotoFile]),
    ]);
    for (const outcome of started)
      if (outcome.status === 'fulfilled' && outcome.value) children.add(outcome.value);
    const [platen, takumi, chromium] = [settled(started[0]), settled(started[1]), settled(started[2])];
    const contenders: Contender[] = [
      platenContender(options.platen ?? (platen as PlatenTarget)),
      peerContender('takumi', takumi.base),
      peerContender('chromium', chromium.base),
    ];

    log(`uploading ${newPhotos} new photos to each…`);
    const photoIds = new Map<ContenderName, string[]>(contenders.map((c) => [c.name, []]));
    for (let i = 0; i < newPhotos; i++) {
      const bytes = new Uint8Array(await photoJpeg(1600, 1200, firstSeed + i));
      for (const contender of contenders) photoIds.get(contender.name)?.push(await contender.upload(bytes));
    }

    const samples = new Map<string, number[]>();
    const sample = (caseName: string, who: string) => {
      const key = `${caseName}/${who}`;
      if (!samples.has(key)) samples.set(key, []);
      return samples.get(key) as number[];
    };
    // Texts no service has seen: Platen would answer an identical request from its stored result.
    const run = Date.now().toString(36).slice(-4);
    // A machine never quiet (a busy CI runner) costs each request this long at most.
    const quiet = quietMachine({ timeoutMs: quick ? 250 : 1_000 });
    const settling = (options.settle ?? true) && quiet.available;
    if ((options.settle ?? true) && !quiet.available)
      log("the machine's CPU time cannot be read here (no cgroup accounting): measuring back to back");
    let previous: { caseName: string; who: ContenderName; measured: boolean } | null = null;
    log(`${warmupRounds} warm-up rounds, then ${rounds} measured…`);
    for (let round = 0; round < warmupRounds + rounds; round++) {
      const first = round % contenders.length;
      const order = [...contenders.slice(first), ...contenders.slice(0, first)];
      const measured = round >= warmupRounds;
      for (const [c, testCase] of CASES.entries()) {
        const headline = `Summer sale ${run} ${c}${round}`;
        const photoIndex = testCase.newPhoto ? 2 * round + (testCase.format === 'png' ? 1 : 0) : -1;
        for (const contender of order) {
          const photoId = photoIds.get(contender.name)?.[photoIndex];
          if (settling) {
            const { waitedMs, timedOut } = await quiet.settle();
            if (previous?.measured && !timedOut)
              sample(previous.caseName, `busyAfter/${previous.who}`).push(
                Math.max(0, waitedMs - quiet.windowMs),
              );
          }
          previous = { caseName: testCase.name, who: contender.name, measured };
          const rendered = await contender.render({ format: testCase.format, headline, photo: photoId });
          if (!measured) continue;
          sample(testCase.name, contender.name).push(rendered.ms);
          if (rendered.downloadMs !== undefined)
            sample(testCase.name, 'platenWithDownload').push(rendered.ms + rendered.downloadMs);
        }
      }
    }

    if (options.saveImagesTo) {
      mkdirSync(options.saveImagesTo, { recursive: true });
      const bytes = new Uint8Array(await photoJpeg(1600, 1200, firstSeed + newPhotos));
      for (const contender of contenders) {
        const id = await contender.upload(bytes);
        for (const [what, photo] of [
          ['headline', undefined],
          ['new-photo', id],
        ] as const) {
          const rendered = await contender.render({ format: 'png', headline: `Summer sale ${run}`, photo });
          writeFileSync(join(options.saveImagesTo, `${contender.name}-${what}.png`), await rendered.image());
        }
      }
    }

    const ratio = (peer: Stat, ours: Stat) => Number((peer.median / ours.median).toFixed(2));
    const cases = Object.fromEntries(
      CASES.map((testCase) => {
        const of = (who: string) => stat(sample(testCase.name, who));
        const [platenStat, takumiStat, chromiumStat] = [of('platen'), of('takumi'), of('chromium')];
        const ratios = { takumi: ratio(takumiStat, platenStat), chromium: ratio(chromiumStat, platenStat) };
        const target = TARGETS[testCase.name];
        const result: CaseResult = {
          label: testCase.label,
          platen: platenStat,
          platenWithDownload: of('platenWithDownload'),
          takumi: takumiStat,
          chromium: chromiumStat,
          ...(settling
            ? {
                busyAfter: {
                  platen: of('busyAfter/platen'),
                  takumi: of('busyAfter/takumi'),
                  chromium: of('busyAfter/chromium'),
                },
              }
            : {}),
          ratios,
          target,
          met: { takumi: ratios.takumi >= target.takumi, chromium: ratios.chromium >= target.chromium },
        };
        return [testCase.name, result];
      }),
    ) as Record<CaseName, CaseResult>;
    return {
      machine: {
        cores: availableParallelism(),
        cpu: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        loadBefore,
        loadAfter: loadavg().map((n) => Number(n.toFixed(2))),
      },
      quick,
      settled: { enabled: settling, timedOut: quiet.timedOut, abandoned: quiet.abandoned },
      rounds,
      warmupRounds,
      newPhotos,
      cases,
      setup: {
        platen: `POST /v1/templates/:id/render on the real service (${options.platen ? 'given' : 'started by the driver'}), JSON answered once the file is stored; JPEG quality ${JPEG_QUALITY}`,
        takumi: `@takumi-rs/core Renderer in its own process over HTTP; HTML parsed once, headline text and photo src replaced per request; photo bytes passed as the render's image; JPEG quality ${JPEG_QUALITY}`,
        chromium: `Debian Chromium (playwright-core) in its own process over HTTP; warm 1080×1080 page, headline textContent replaced, new photo loaded from the peer's asset URL and img.decode() awaited, page.screenshot; JPEG quality ${JPEG_QUALITY}`,
      },
    };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await stopAll(children);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** case | Platen ms | takumi ms (×) | Chromium ms (×), medians, with Platen's p95 and download. */
export function formatHeadToHead(result: HeadToHeadResult): string {
  const ms = (s: Stat) => s.median.toFixed(1);
  const rows = [
    ['case', 'Platen ms', 'Platen p95', '+ download', 'takumi ms (×)', 'Chromium ms (×)', 'target ×', 'met'],
    ...CASES.map(({ name }) => {
      const c = result.cases[name];
      return [
        c.label,
        ms(c.platen),
        c.platen.p95.toFixed(1),
        ms(c.platenWithDownload),
        `${ms(c.takumi)} (${c.ratios.takumi}×)`,
        `${ms(c.chromium)} (${c.ratios.chromium}×)`,
        `${c.target.takumi} / ${c.target.chromium}`,
        `${c.met.takumi ? 'yes' : 'no'} / ${c.met.chromium ? 'yes' : 'no'}`,
      ];
    }),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  const table = rows.map((row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  '),
  );
  return [...table, settlingLine(result)].join('\n');
}

/** How the requests were timed: each on a quiet machine, or back to back, and why. */
function settlingLine({ settled }: HeadToHeadResult): string {
  if (!settled.enabled) return 'each request timed back to back (no waiting for a quiet machine)';
  const gaveUp = `${settled.timedOut} waits for a quiet machine gave up`;
  return settled.abandoned
    ? `${gaveUp}; the machine never went quiet, so waiting stopped and later requests were timed back to back`
    : `each request started on a quiet machine (${gaveUp})`;
}

/** How long the wait after each contender's requests took beyond its quiet window, per case. */
export function formatBusyAfter(result: HeadToHeadResult): string {
  const lines = CASES.flatMap(({ name }) => {
    const busy = result.cases[name].busyAfter;
    if (!busy) return [];
    const of = (who: ContenderName) => `${who} ${busy[who].median.toFixed(0)} ms`;
    return [`  ${result.cases[name].label}: ${CONTENDERS.map(of).join(', ')}`];
  });
  return ['busy after answering (median wait beyond the quiet window):', ...lines].join('\n');
}

/** `--rounds=N`: a positive whole number, or the default when absent. */
function roundsFromArgs(args: string[]): number | undefined {
  if (args.includes('--rounds')) throw new Error('write --rounds=N (with "=")');
  const value = args.find((arg) => arg.startsWith('--rounds='))?.slice('--rounds='.length);
  if (value === undefined) return undefined;
  const rounds = Number(value);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`--rounds must be a positive whole number: ${value}`);
  return rounds;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const rounds = roundsFromArgs(process.argv.slice(2));
  const result = await headToHead({
    quick,
    settle: !process.argv.includes('--no-settle'),
    ...(rounds ? { rounds } : {}),
    saveImagesTo: process.argv.find((arg) => arg.startsWith('--images='))?.slice('--images='.length),
    log: (line) => console.error(line),
  });
  console.log(
    `head to head, ${result.rounds} rounds (+${result.warmupRounds} warm-up), ${result.machine.cores} cores, medians:`,
  );
  console.log(formatHeadToHead(result));
  if (result.settled.enabled) console.log(formatBusyAfter(result));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/head-to-head.json', `${JSON.stringify(result, null, 2)}\n`);
}
