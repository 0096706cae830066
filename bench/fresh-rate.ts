/**
 * `node --import tsx bench/fresh-rate.ts [dist dir …] [--rounds N]`: the fresh-render phase of
 * `bench:api` alone, to compare builds. For each build (default `dist`; copy an earlier build inside
 * the repository, e.g. `.scratch/dist-before`, so its packages resolve), a service on a new data
 * directory renders the benchmark post as JPEG with a new headline every request, 4 clients, in
 * 10-second rounds; the builds take turns round by round. Prints a table of the median renders/s
 * per build and writes bench/results/fresh-rate.json.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { freePort } from '../test/harness/ports.ts';
import { benchDocument, photoJpeg } from './designs.ts';
import { BENCH_ADMIN_TOKEN, startPlaten } from './platen-service.ts';

const ADMIN = BENCH_ADMIN_TOKEN;
let rounds = 3;
const dists: string[] = [];
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i] as string;
  if (arg === '--rounds') rounds = Number(process.argv[++i]);
  else dists.push(arg);
}
if (dists.length === 0) dists.push('dist');

interface Service {
  dist: string;
  child: ChildProcess;
  url: string;
  key: string;
  rates: number[];
}

async function start(dist: string): Promise<Service> {
  const { base, child } = await startPlaten(await freePort(), dist);
  const post = async (path: string, body: unknown, token: string, type = 'application/json') => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body: type === 'application/json' ? JSON.stringify(body) : Buffer.from(body as Uint8Array),
    });
    return (await res.json()) as { id: string; key: string };
  };
  const workspace = await post('/admin/v1/workspaces', { name: 'bench', credits: 100_000_000 }, ADMIN);
  const { key } = await post(
    `/admin/v1/workspaces/${workspace.id}/api-keys`,
    { scopes: ['template:write', 'render:write', 'asset:write'] },
    ADMIN,
  );
  const photo = await post('/v1/assets', new Uint8Array(await photoJpeg()), key, 'image/jpeg');
  const template = await post(
    '/v1/templates',
    { name: 'bench', document: benchDocument(`asset:${photo.id}`) },
    key,
  );
  const url = `${base}/v1/templates/${template.id}/render`;
  for (let i = 0; i < 20; i++)
    await post(url.slice(base.length), { format: 'jpeg', modifications: { headline: `Warm ${i}` } }, key);
  return { dist, child, url, key, rates: [] };
}

async function round(service: Service, tag: string): Promise<number> {
  let counter = 0;
  const body = () =>
    JSON.stringify({ format: 'jpeg', modifications: { headline: `Rate ${tag} ${counter++}` } });
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const services: Service[] = [];
for (const dist of dists) services.push(await start(dist));
try {
  // One service renders at a time; the others idle.
  for (let r = 0; r < rounds; r++)
    for (const service of services) service.rates.push(await round(service, `${Date.now()}-${r}`));
} finally {
  for (const service of services) service.child.kill();
}
const rows = services.map((service) => ({
  build: service.dist,
  medianPerSecond: Math.round(median(service.rates) * 10) / 10,
  rounds: service.rates.map((rate) => Math.round(rate * 10) / 10),
}));
console.table(rows);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/fresh-rate.json',
  `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`,
);
process.exit(0);
