/**
 * Webhook process tests' helpers: service processes (`npm start`) that are all killed after the
 * file, PostgreSQL schemas of their own, and the operator and embed calls that lead to events: a
 * workspace with a webhook (its secret handed to the receiver), an embed, a session, templates.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBase62 } from '../../src/core/ids.ts';
import type { Receiver } from '../../src/webhooks/testing/receiver.ts';
import { urlWithSchema } from './backends.ts';
import { type ServiceProcess, startService } from './process.ts';
import { ADMIN_TOKEN, bearer, http } from './server.ts';

export interface Fleet {
  /** A service process; every one started is SIGKILLed by `cleanup`. */
  start(env: Record<string, string>, command?: string[]): Promise<ServiceProcess>;
  tempDir(label: string): string;
  /** A fresh PostgreSQL schema (dropped by `cleanup`) and the URL that uses it. */
  pgDatabase(url: string): Promise<string>;
  cleanup(): Promise<void>;
}

export function fleet(baseEnv: Record<string, string> = {}): Fleet {
  const started: ServiceProcess[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  const query = async (url: string, text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    async start(env, command) {
      const service = await startService(
        {
          PLATEN_ADMIN_TOKEN: ADMIN_TOKEN,
          PLATEN_ALLOW_PRIVATE_URLS: 'true',
          PLATEN_LOG_LEVEL: 'warn',
          ...baseEnv,
          ...env,
        },
        { command },
      );
      started.push(service);
      return service;
    },
    tempDir(label) {
      const dir = mkdtempSync(join(tmpdir(), `platen-${label}-`));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
    async pgDatabase(url) {
      const schema = `t_${randomBase62(12).toLowerCase()}`;
      await query(url, `CREATE SCHEMA "${schema}"`);
      cleanups.push(() => query(url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
      return urlWithSchema(url, schema);
    },
    async cleanup() {
      for (const s of started.splice(0)) await s.stop('SIGKILL');
      for (const c of cleanups.splice(0)) await c();
    },
  };
}

async function ok(
  base: string,
  method: string,
  path: string,
  body: unknown,
  token = ADMIN_TOKEN,
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
): Promise<any> {
  const res = await http(base, method, path, { body, headers: bearer(token) });
  if (res.status < 200 || res.status > 299)
    throw new Error(`${method} ${path}: ${res.status} ${res.bytes.toString()}`);
  return res.json;
}

export interface EmbedSubscriber {
  workspaceId: string;
  webhookId: string;
  embedId: string;
  /** An embed session token for end-user `u1`. */
  token: string;
}

/**
 * A workspace whose webhook posts `template.create` and `template.update` to `url` (its secret is
 * given to `receiver` for `path`), an embed and a session of it.
 */
export async function embedSubscriber(
  base: string,
  receiver: Receiver,
  path: string,
  url = receiver.url(path),
): Promise<EmbedSubscriber> {
  const ws = await ok(base, 'POST', '/admin/v1/workspaces', { name: 'hooks', credits: 0 });
  const hook = await ok(base, 'POST', `/admin/v1/workspaces/${ws.id}/webhooks`, {
    url,
    events: ['template.create', 'template.update'],
  });
  receiver.secrets.set(path, hook.secret);
  const embed = await ok(base, 'POST', `/admin/v1/workspaces/${ws.id}/embeds`, {});
  const session = await ok(base, 'POST', `/v1/embed/${embed.id}/session`, { userId: 'u1' });
  return { workspaceId: ws.id, webhookId: hook.id, embedId: embed.id, token: session.token };
}

/** Creates a template through the embed route (which writes a template.create event). */
export async function embedTemplate(base: string, sub: EmbedSubscriber, name: string): Promise<string> {
  const body = { name, width: 10, height: 10 };
  return (await ok(base, 'POST', `/v1/embed/${sub.embedId}/templates`, body, sub.token)).id;
}

export interface Delivery {
  messageId: string;
  attempt: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** The webhook's delivery log, newest first. */
export async function deliveryLog(base: string, webhookId: string): Promise<Delivery[]> {
  return (await ok(base, 'GET', `/admin/v1/webhooks/${webhookId}/deliveries?limit=100`, undefined)).items;
}

/** Polls `condition` until it holds; throws with `describe()` after `timeoutMs`. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  describe: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms ${describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
