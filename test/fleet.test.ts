/**
 * Three instances, one state: real service processes (`npm start`) sharing one PostgreSQL schema,
 * one S3-compatible store (s3rver) and one Redis, behind a round-robin load balancer on loopback
 * whose URL is every instance's PLATEN_BASE_URL. Each step spreads its calls over the instances and
 * checks that the outcome is the one a single instance gives: renders charged once and identical
 * renders deduplicated, one rate limit, each webhook message delivered once, embed sessions, OAuth
 * clients, codes and tokens, and thumbnails usable on every instance.
 */
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/core/ids.ts';
import { s3ClientConfig } from '../src/files/s3.ts';
import { startReceiver } from '../src/webhooks/testing/receiver.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { pgUrl } from './harness/backends.ts';
import { type Balancer, startBalancer } from './harness/balancer.ts';
import { rawMcp } from './harness/mcp.ts';
import { createUser } from './harness/oauth.ts';
import { refresh, tokensFor } from './harness/oauth-flow.ts';
import type { ServiceProcess } from './harness/process.ts';
import { ADMIN_TOKEN, bearer, http } from './harness/server.ts';
import { embedSubscriber, embedTemplate, eventually, fleet } from './harness/webhooks.ts';

const redisUrl = process.env.PLATEN_TEST_REDIS_URL;
const skip = !pgUrl
  ? 'PLATEN_TEST_DATABASE_URL not set'
  : !redisUrl
    ? 'PLATEN_TEST_REDIS_URL not set'
    : false;
const RATE_LIMIT = 20;
const admin = bearer(ADMIN_TOKEN);

describe.skipIf(skip)(`three instances behind a load balancer${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const services = fleet();
  let s3: S3rver;
  let balancer: Balancer;
  let instances: ServiceProcess[] = [];
  let base = '';

  beforeAll(async () => {
    const s3Dir = services.tempDir('fleet-s3');
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir });
    const { port } = await s3.run();
    const bucket = 'platen-fleet';
    const s3Env = {
      PLATEN_S3_BUCKET: bucket,
      PLATEN_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      PLATEN_S3_ACCESS_KEY_ID: 'S3RVER',
      PLATEN_S3_SECRET_ACCESS_KEY: 'S3RVER',
      PLATEN_S3_FORCE_PATH_STYLE: 'true',
    };
    const client = new S3Client(
      s3ClientConfig({
        bucket,
        region: 'us-east-1',
        endpoint: s3Env.PLATEN_S3_ENDPOINT,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: '',
      }),
    );
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    balancer = await startBalancer();
    base = balancer.base;
    const databaseUrl = await services.pgDatabase(pgUrl ?? '');
    const env = {
      ...s3Env,
      DATABASE_URL: databaseUrl,
      PLATEN_REDIS_URL: redisUrl ?? '',
      PLATEN_BASE_URL: base,
      PLATEN_BOOTSTRAP: 'false',
      PLATEN_RENDER_WORKERS: '1',
      PLATEN_RENDER_RATE_LIMIT: String(RATE_LIMIT),
    };
    // Started together: the three race through the migrations and the first-start work.
    instances = await Promise.all([0, 1, 2].map(() => services.start(env)));
    balancer.targets.push(...instances.map((instance) => instance.base));
  }, 120_000);
  afterAll(async () => {
    await services.cleanup();
    await balancer?.close();
    await s3?.close();
  });

  async function workspaceWithKey(credits: number) {
    const ws = await http(base, 'POST', '/admin/v1/workspaces', {
      body: { name: 'f', credits },
      headers: admin,
    });
    const key = await http(base, 'POST', `/admin/v1/workspaces/${ws.json.id}/api-keys`, {
      body: { scopes: ['template:read', 'template:write', 'render:write'] },
      headers: admin,
    });
    return { workspaceId: ws.json.id as string, key: key.json.key as string };
  }

  async function template(key: string): Promise<string> {
    const res = await http(base, 'POST', '/v1/templates', {
      body: { name: 'fleet', document: simpleDocument() },
      headers: bearer(key),
    });
    expect(res.status).toBe(201);
    return res.json.id;
  }

  const ledgerOf = async (workspaceId: string) =>
    (
      await http(base, 'GET', `/admin/v1/workspaces/${workspaceId}/ledger`, { headers: admin })
    ).json.items.map((entry: { delta: number }) => entry.delta);

  it('renders and charges once; identical renders on any instance are free replays of one file', async () => {
    const { workspaceId, key } = await workspaceWithKey(10);
    const templateId = await template(key);
    const render = (headline: string) =>
      http(base, 'POST', `/v1/templates/${templateId}/render`, {
        body: { format: 'png', modifications: { name: headline } },
        headers: bearer(key),
      });
    const burst = await Promise.all(Array.from({ length: 9 }, () => render('same')));
    expect(burst.map((res) => res.status)).toEqual(Array(9).fill(200));
    expect(new Set(burst.map((res) => res.json.id)).size).toBe(1);
    expect(burst.map((res) => res.json.credits.charged).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1]);
    const other = await render('different');
    expect(other.json.credits).toEqual({ charged: 1, balanceAfter: 8 });
    expect(await ledgerOf(workspaceId)).toEqual([10, -1, -1]);
    // The file lives in the shared bucket: each instance serves it at the same URL's path.
    const url = new URL(burst[0]?.json.url);
    for (const instance of instances) {
      const file = await fetch(`${instance.base}${url.pathname}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
    }
  });

  it('enforces one rate limit across the instances (Redis), not one per instance', async () => {
    const { key } = await workspaceWithKey(5);
    const templateId = await template(key);
    const statuses: number[] = [];
    const codes = new Set<string>();
    for (let i = 0; i < RATE_LIMIT + 6; i++) {
      const res = await http(base, 'POST', `/v1/templates/${templateId}/render`, {
        body: { format: 'png' },
        headers: bearer(key),
      });
      statuses.push(res.status);
      if (res.status === 429) codes.add(res.json.error.code);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect([...codes]).toEqual(['RATE_LIMITED']);
  });

  it('delivers each webhook message once, whichever instance wrote or sent it', async () => {
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const sub = await embedSubscriber(base, receiver, '/fleet');
      const ids: string[] = [];
      for (let i = 0; i < 9; i++) ids.push(await embedTemplate(base, sub, `t${i}`));
      await eventually(
        () => receiver.delivered('/fleet').size === 9,
        20_000,
        () => `${receiver.requests.length}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // any duplicate would arrive by now
      expect(receiver.requests).toHaveLength(9);
      expect(receiver.requests.every((request) => request.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('accepts an embed session minted on one instance on every other', async () => {
    const { workspaceId } = await workspaceWithKey(0);
    const [first, ...others] = instances;
    if (!first) throw new Error('no instance');
    const embed = await http(first.base, 'POST', `/admin/v1/workspaces/${workspaceId}/embeds`, {
      body: {},
      headers: admin,
    });
    const session = await http(first.base, 'POST', `/v1/embed/${embed.json.id}/session`, {
      body: { userId: 'u1' },
      headers: admin,
    });
    expect(session.status).toBe(201);
    for (const instance of others) {
      const listed = await http(instance.base, 'GET', `/v1/embed/${embed.json.id}/templates`, {
        headers: bearer(session.json.token),
      });
      expect(listed.status).toBe(200);
      const forged = await http(instance.base, 'GET', `/v1/embed/${embed.json.id}/templates`, {
        headers: bearer(`${session.json.token.slice(0, -2)}xx`),
      });
      expect(forged.json.error.code).toBe('INVALID_SESSION');
    }
  });

  it('runs the OAuth flow across instances: each step may land anywhere', async () => {
    const { workspaceId } = await workspaceWithKey(3);
    const person = { email: `fleet-${randomBase62(6)}@example.com`, password: 'correct horse battery' };
    await createUser(base, { ...person, workspaceIds: [workspaceId] });
    const before = [...balancer.served];
    const { flow, tokens } = await tokensFor(base, person);
    const spread = balancer.served.map((count, i) => count - (before[i] ?? 0));
    expect(spread.every((count) => count > 0)).toBe(true);
    for (let i = 0; i < instances.length; i++) {
      const listed = await rawMcp(base, tokens.access_token, { jsonrpc: '2.0', id: i, method: 'tools/list' });
      expect(listed.status).toBe(200);
    }
    const renewed = await refresh(flow, tokens.refresh_token ?? '');
    expect(renewed.access_token).not.toBe(tokens.access_token);
    // The used refresh token is spent everywhere (rotation is in the shared store).
    const replayed = await http(base, 'POST', '/oauth/token', {
      raw: Buffer.from(
        new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token ?? '',
          client_id: flow.client.client_id,
          resource: flow.resource,
        }).toString(),
      ),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(replayed.status).toBe(400);
    expect(replayed.json.error).toBe('invalid_grant');
  });

  it('shows a thumbnail rendered by one instance on every instance', async () => {
    const { key } = await workspaceWithKey(0);
    const [first] = instances;
    const created = await http(first?.base ?? '', 'POST', '/v1/templates', {
      body: { name: 'thumb', document: simpleDocument() },
      headers: bearer(key),
    });
    let thumbnailUrl: string | null = null;
    await eventually(async () => {
      const res = await http(instances[2]?.base ?? '', 'GET', `/v1/templates/${created.json.id}`, {
        headers: bearer(key),
      });
      thumbnailUrl = res.json.thumbnailUrl ?? null;
      return thumbnailUrl !== null;
    }, 20_000);
    const path = new URL(thumbnailUrl ?? '').pathname;
    for (const instance of instances) {
      const file = await fetch(`${instance.base}${path}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
    }
  });
});
