/**
 * The mixed load of the soak and chaos runs, open loop (requests start at a fixed rate whether or
 * not earlier ones finished, as real traffic does): fresh renders, identical replays, template
 * saves through the API, and embed calls (list, autosave, create) from an end-user session, with a
 * webhook on template events. It records every acknowledged write so the runs can prove none was
 * lost, and per operation the count, errors and latency.
 */
import { simpleDocument } from '../../test/fixtures/samples.ts';

/**
 * One instance's documented capacity for this mix on the 2-core reference machine (docs/operations.md):
 * 250 operations/s, 50 of them fresh renders. The soak runs one instance at it; the chaos run puts
 * the same load on three.
 */
export const CAPACITY = 250;

export type Op = 'fresh-render' | 'replay' | 'template-save' | 'embed-list' | 'embed-save' | 'embed-create';

/** Share of each operation in the mix (sums to 1). */
export const MIX: Record<Op, number> = {
  'fresh-render': 0.2,
  replay: 0.4,
  'template-save': 0.15,
  'embed-list': 0.1,
  'embed-save': 0.1,
  'embed-create': 0.05,
};

export interface LoadContext {
  workspaceId: string;
  key: string;
  renderTemplateId: string;
  saveTemplateIds: string[];
  embedId: string;
  session: string;
  embedTemplateIds: string[];
  webhookSecret: string;
}

export interface Acknowledged {
  /** Renders answered 200, with whether they were charged. */
  renders: Map<string, { charged: number; url: string }>;
  /** Templates created (201) through the embed route. */
  templates: Set<string>;
}

export interface OpStats {
  count: number;
  errors: number;
  latencies: number[];
  lastError?: string;
}

async function call(base: string, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON (a balancer's 502)
  }
  return { status: res.status, json };
}

async function ok(base: string, method: string, path: string, token: string, body?: unknown) {
  const res = await call(base, method, path, token, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as Record<string, unknown> & { id: string };
}

/** A workspace with plenty of credits, templates, an embed with a session, and a webhook to `hookUrl`. */
export async function prepareLoad(base: string, admin: string, hookUrl: string): Promise<LoadContext> {
  const ws = await ok(base, 'POST', '/admin/v1/workspaces', admin, { name: 'load', credits: 1_000_000 });
  const key = (await ok(base, 'POST', `/admin/v1/workspaces/${ws.id}/api-keys`, admin, {
    scopes: ['template:read', 'template:write', 'render:write', 'asset:read', 'asset:write'],
  })) as unknown as { key: string };
  const template = (name: string) =>
    ok(base, 'POST', '/v1/templates', key.key, { name, document: simpleDocument() }).then((t) => t.id);
  const renderTemplateId = await template('render');
  const saveTemplateIds = [await template('save-a'), await template('save-b'), await template('save-c')];
  const embed = await ok(base, 'POST', `/admin/v1/workspaces/${ws.id}/embeds`, admin, {});
  const session = (await ok(base, 'POST', `/v1/embed/${embed.id}/session`, admin, {
    userId: 'load-user',
  })) as unknown as { token: string };
  const embedTemplateIds: string[] = [];
  for (const name of ['e1', 'e2'])
    embedTemplateIds.push(
      (
        await ok(base, 'POST', `/v1/embed/${embed.id}/templates`, session.token, {
          name,
          width: 400,
          height: 300,
        })
      ).id,
    );
  // Last, so the setup's own events go nowhere: the receiver knows the secret before any event.
  const hook = (await ok(base, 'POST', `/admin/v1/workspaces/${ws.id}/webhooks`, admin, {
    url: hookUrl,
    events: ['template.create', 'template.update'],
  })) as unknown as { secret: string };
  return {
    workspaceId: ws.id,
    key: key.key,
    renderTemplateId,
    saveTemplateIds,
    embedId: embed.id,
    session: session.token,
    embedTemplateIds,
    webhookSecret: hook.secret,
  };
}

function pick(random: number): Op {
  let sum = 0;
  for (const [op, share] of Object.entries(MIX) as [Op, number][]) {
    sum += share;
    if (random < sum) return op;
  }
  return 'replay';
}

/** One operation: whether it succeeded as it should (and the acknowledged writes it made). */
async function perform(
  op: Op,
  base: string,
  ctx: LoadContext,
  seq: number,
  acked: Acknowledged,
): Promise<boolean> {
  const document = simpleDocument(`Saved ${seq}`);
  switch (op) {
    case 'fresh-render':
    case 'replay': {
      const name = op === 'replay' ? `variant ${seq % 8}` : `fresh ${seq} ${Math.random()}`;
      const res = await call(base, 'POST', `/v1/templates/${ctx.renderTemplateId}/render`, ctx.key, {
        format: 'jpeg',
        modifications: { name },
      });
      if (res.status !== 200) return false;
      const credits = res.json.credits as { charged: number };
      // A replay answers the first render's id again, free: the entry keeps the charge once made.
      const id = String(res.json.id);
      const charged = Math.max(credits.charged, acked.renders.get(id)?.charged ?? 0);
      acked.renders.set(id, { charged, url: String(res.json.url) });
      return true;
    }
    case 'template-save': {
      const id = ctx.saveTemplateIds[seq % ctx.saveTemplateIds.length];
      return (await call(base, 'PUT', `/v1/templates/${id}`, ctx.key, { document })).status === 200;
    }
    case 'embed-list':
      return (await call(base, 'GET', `/v1/embed/${ctx.embedId}/templates`, ctx.session)).status === 200;
    case 'embed-save': {
      const id = ctx.embedTemplateIds[seq % ctx.embedTemplateIds.length];
      const path = `/v1/embed/${ctx.embedId}/templates/${id}`;
      return (await call(base, 'PUT', path, ctx.session, { document })).status === 200;
    }
    case 'embed-create': {
      const res = await call(base, 'POST', `/v1/embed/${ctx.embedId}/templates`, ctx.session, {
        name: `c${seq}`,
        width: 200,
        height: 200,
      });
      if (res.status !== 201) return false;
      acked.templates.add(String(res.json.id));
      return true;
    }
  }
}

export interface LoadRun {
  stats: Record<Op, OpStats>;
  acked: Acknowledged;
  /** Starts skipped because `maxInFlight` requests were already waiting (the rate was not met). */
  shed: number;
}

/**
 * Starts `rate` operations a second for `seconds` against `base()` (asked per request, so a
 * balancer or a restarted instance can change it).
 */
export async function runLoad(options: {
  base: () => string;
  ctx: LoadContext;
  rate: number;
  seconds: number;
  maxInFlight?: number;
  onSecond?: (second: number) => void;
}): Promise<LoadRun> {
  const stats = Object.fromEntries(
    Object.keys(MIX).map((op) => [op, { count: 0, errors: 0, latencies: [] as number[] }]),
  ) as Record<Op, OpStats>;
  const acked: Acknowledged = { renders: new Map(), templates: new Set() };
  const maxInFlight = options.maxInFlight ?? 64;
  const inFlight = new Set<Promise<void>>();
  let shed = 0;
  let started = 0;
  const begin = performance.now();
  let lastSecond = -1;
  while (performance.now() - begin < options.seconds * 1000) {
    const elapsed = (performance.now() - begin) / 1000;
    if (Math.floor(elapsed) !== lastSecond) {
      lastSecond = Math.floor(elapsed);
      options.onSecond?.(lastSecond);
    }
    while (started < elapsed * options.rate) {
      const seq = started++;
      if (inFlight.size >= maxInFlight) {
        shed++;
        continue;
      }
      const op = pick(Math.random());
      const stat = stats[op];
      const t0 = performance.now();
      const done = perform(op, options.base(), options.ctx, seq, acked)
        .catch((error: unknown) => {
          stat.lastError = String(error);
          return false;
        })
        .then((success) => {
          stat.count++;
          if (success) stat.latencies.push(performance.now() - t0);
          else stat.errors++;
        })
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await Promise.all(inFlight);
  return { stats, acked, shed };
}

export function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Number(
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(1),
  );
}
