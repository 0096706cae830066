/**
 * `node --import tsx bench/fresh-rate.ts [dist dir …] [--rounds N] [--replays]`: the fresh-render
 * phase of `bench:api` alone, to compare builds. For each build (default `dist`; copy an earlier
 * build inside the repository, e.g. `.scratch/dist-before`, so its packages resolve), a service on
 * a new data directory renders the benchmark post as JPEG with a new headline every request, 4
 * clients, in 10-second rounds; the builds take turns round by round. Prints a table of the median
 * renders/s per build and writes bench/results/fresh-rate.json.
 *
 * `--replays`: the identical-replay phase instead: the service pinned to the first core (every
 * thread), autocannon in its own process on the last (32 clients, one identical request), and the
 * service's CPU per replay from /proc beside the rate: the figure other tenants of the machine
 * disturb least. Writes bench/results/replay-rate.json.
 *
 * `--latency`: one client instead of 4, 300 renders a round one after another; the median time of
 * a render end to end per round, and the service's and its render processes' CPU per render.
 * Writes bench/results/fresh-latency.json. `--gap MS` (with `--latency` only): the client waits MS
 * milliseconds between those renders, so each finds the service idle, as in the head-to-head; the
 * waits are not in the times, but the CPU figures include whatever the processes do during them.
 *
 * `--format png`: the fresh and latency phases render PNG instead of JPEG (replays stay JPEG); the
 * results file's name then ends in -png.
 *
 * `--new-photo` (with `--latency` only): every render also swaps in a 1600×1200 photo that service
 * has never drawn (photoJpeg, a new seed each; uploaded as an asset before the round, untimed), 60
 * renders a round: the head-to-head's new-photo case, to compare builds. The results file's name
 * then ends in -photo.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { freePort } from '../test/harness/ports.ts';
import { photoJpeg } from './designs.ts';
import { benchTemplate, startPlaten } from './platen-service.ts';
import { childrenCpuMs, cpuMs } from './proc.ts';

let rounds = 3;
let replays = false;
let latency = false;
let format: 'jpeg' | 'png' = 'jpeg';
let gapMs = 0;
let newPhoto = false;
const dists: string[] = [];
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i] as string;
  if (arg === '--rounds') rounds = Number(process.argv[++i]);
  else if (arg === '--replays') replays = true;
  else if (arg === '--latency') latency = true;
  else if (arg === '--gap') gapMs = Number(process.argv[++i]);
  else if (arg === '--new-photo') newPhoto = true;
  else if (arg === '--format') format = process.argv[++i] === 'png' ? 'png' : 'jpeg';
  else dists.push(arg);
}
if (!Number.isFinite(gapMs) || gapMs < 0) {
  console.error('fresh-rate: --gap takes a number of milliseconds, 0 or more');
  process.exit(1);
}
if (gapMs > 0 && !latency) {
  console.error('fresh-rate: --gap applies to --latency only');
  process.exit(1);
}
if (newPhoto && !latency) {
  console.error('fresh-rate: --new-photo applies to --latency only');
  process.exit(1);
}
const cores = availableParallelism();
if (dists.length === 0) dists.push('dist');

interface Service {
  dist: string;
  child: ChildProcess;
  url: string;
  key: string;
  /** The service's base URL. */
  base: string;
  rates: number[];
  /** --replays: the service's CPU per request, µs, per round; --latency: per render. */
  cpuUs: number[];
  /** --latency: its render processes' CPU per render, µs, per round. */
  childCpuUs: number[];
}

async function start(dist: string): Promise<Service> {
  const { base, child } = await startPlaten(await freePort(), dist);
  const { key, url, post } = await benchTemplate(base);
  for (let i = 0; i < 20; i++)
    await post(url.slice(base.length), { format, modifications: { headline: `Warm ${i}` } });
  if (replays) {
    await post(url.slice(base.length), { format: 'jpeg', idempotencyKey: 'replay' });
    if (cores > 1) execFileSync('taskset', ['-a', '-pc', '0', String(child.pid)], { stdio: 'ignore' });
  }
  return { dist, child, url, key, base, rates: [], cpuUs: [], childCpuUs: [] };
}

/** One round of identical replays from autocannon's own process, pinned apart from the service. */
function replayRound(service: Service): { rate: number; cpuUs: number } {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', '32', '-d', '10', '-m', 'POST'];
  args.push('-H', `authorization=Bearer ${service.key}`, '-H', 'content-type=application/json');
  args.push('-b', JSON.stringify({ format: 'jpeg', idempotencyKey: 'replay' }), service.url);
  const pid = service.child.pid ?? 0;
  const before = cpuMs(pid);
  const out =
    cores > 1
      ? execFileSync('taskset', ['-c', String(cores - 1), process.execPath, ...args], { encoding: 'utf8' })
      : execFileSync(process.execPath, args, { encoding: 'utf8' });
  const used = cpuMs(pid) - before;
  const result = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number };
  if (result.non2xx > 0) throw new Error(`${service.dist}: ${result.non2xx} non-2xx replays`);
  return { rate: result.requests.average, cpuUs: (used * 1000) / Math.max(1, result.requests.total) };
}

async function round(service: Service, tag: string): Promise<number> {
  let counter = 0;
  const body = () => JSON.stringify({ format, modifications: { headline: `Rate ${tag} ${counter++}` } });
  const result = await autocannon({
    url: service.url,
    method: 'POST',
    connections: 4,
    duration: 10,
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    setupClient: (client) => client.setBody(body()),
    requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${service.dist}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** --new-photo: photos no service has drawn yet, made before the round (seeds from 10,000 up). */
let nextSeed = 10_000;
async function newPhotos(count: number): Promise<Buffer[]> {
  const photos: Buffer[] = [];
  for (let i = 0; i < count; i++) photos.push(await photoJpeg(1600, 1200, nextSeed++));
  return photos;
}

async function upload(service: Service, photo: Buffer): Promise<string> {
  const response = await fetch(`${service.base}/v1/assets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'image/jpeg' },
    body: new Uint8Array(photo),
  });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`${service.dist}: upload answered ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * One round of renders one after another: the median milliseconds each, and the CPU they used.
 * `photos` (--new-photo): one per render, each new to the service.
 */
async function latencyRound(service: Service, tag: string, photos?: Buffer[]) {
  const assets: string[] = [];
  for (const photo of photos ?? []) assets.push(await upload(service, photo));
  const renders = photos ? photos.length : 300;
  const pid = service.child.pid ?? 0;
  const [before, childrenBefore] = [cpuMs(pid), childrenCpuMs(pid)];
  const times: number[] = [];
  for (let i = 0; i < renders; i++) {
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    const started = performance.now();
    const response = await fetch(service.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        format,
        modifications: {
          headline: `Latency ${tag} ${i}`,
          ...(assets[i] ? { photo: `asset:${assets[i]}` } : {}),
        },
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${service.dist}: render answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return {
    ms: median(times),
    cpuUs: ((cpuMs(pid) - before) * 1000) / renders,
    childCpuUs: ((childrenCpuMs(pid) - childrenBefore) * 1000) / renders,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const services: Service[] = [];
for (const dist of dists) services.push(await start(dist));
try {
  // One service renders at a time; the others idle.
  for (let r = 0; r < rounds; r++) {
    // The same new photos for every build this round: each service has its own caches.
    const photos = newPhoto ? await newPhotos(60) : undefined;
    for (const service of services) {
      if (latency) {
        const measured = await latencyRound(service, `${Date.now()}-${r}`, photos);
        service.rates.push(measured.ms);
        service.cpuUs.push(measured.cpuUs);
        service.childCpuUs.push(measured.childCpuUs);
        continue;
      }
      if (!replays) {
        service.rates.push(await round(service, `${Date.now()}-${r}`));
        continue;
      }
      const { rate, cpuUs } = replayRound(service);
      service.rates.push(rate);
      service.cpuUs.push(cpuUs);
    }
  }
} finally {
  for (const service of services) service.child.kill();
}
const rows = services.map((service) =>
  latency
    ? {
        build: service.dist,
        medianMs: Math.round(median(service.rates) * 100) / 100,
        roundsMs: service.rates.map((ms) => Math.round(ms * 100) / 100),
        serviceCpuUsPerRender: Math.round(median(service.cpuUs)),
        renderProcessesCpuUsPerRender: Math.round(median(service.childCpuUs)),
      }
    : {
        build: service.dist,
        medianPerSecond: Math.round(median(service.rates) * 10) / 10,
        rounds: service.rates.map((rate) => Math.round(rate * 10) / 10),
        ...(replays
          ? {
              medianCpuUsPerRequest: Math.round(median(service.cpuUs)),
              cpuUsRounds: service.cpuUs.map(Math.round),
            }
          : {}),
      },
);
console.table(rows);
mkdirSync('bench/results', { recursive: true });
const suffix = `${format === 'png' && !replays ? '-png' : ''}${newPhoto ? '-photo' : ''}`;
writeFileSync(
  latency
    ? `bench/results/fresh-latency${suffix}.json`
    : replays
      ? 'bench/results/replay-rate.json'
      : `bench/results/fresh-rate${suffix}.json`,
  `${JSON.stringify({ date: new Date().toISOString(), format, ...(latency ? { gapMs, newPhoto } : {}), rows }, null, 2)}\n`,
);
process.exit(0);
