/**
 * The databases a suite runs against: SQLite always, PostgreSQL when PLATEN_TEST_DATABASE_URL is
 * set. Each PostgreSQL store gets a schema of its own, dropped afterwards, so test files can run
 * in parallel on one server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBase62 } from '../../src/core/ids.ts';
import { openStore, type Store } from '../../src/store/index.ts';

export type BackendName = 'sqlite' | 'postgres';

export const pgUrl = process.env.PLATEN_TEST_DATABASE_URL;

/** Backends with a skip reason when unavailable (so the report says why). */
export const backends: { name: BackendName; skip: string | false }[] = [
  { name: 'sqlite', skip: false },
  { name: 'postgres', skip: pgUrl ? false : 'PLATEN_TEST_DATABASE_URL not set' },
];

export const redisUrl = process.env.PLATEN_TEST_REDIS_URL;

/**
 * Where background renders wait (src/renders/queue.ts): the database on each backend, and BullMQ
 * over Redis on PostgreSQL. The suites of background work run on each, the same cases.
 */
export const queues: {
  name: string;
  backend: BackendName;
  env: Record<string, string>;
  skip: string | false;
}[] = [
  ...backends.map((b) => ({ name: b.name, backend: b.name, env: {}, skip: b.skip })),
  {
    name: 'postgres with BullMQ',
    backend: 'postgres',
    env: { PLATEN_REDIS_URL: redisUrl ?? '', PLATEN_QUEUE: 'bullmq' },
    skip: !pgUrl ? 'PLATEN_TEST_DATABASE_URL not set' : !redisUrl ? 'PLATEN_TEST_REDIS_URL not set' : false,
  },
];

export interface TestDatabase {
  dataDir: string;
  databaseUrl?: string;
  pgSchema?: string;
  open(): Promise<Store>;
  /** Removes the data dir and the PostgreSQL schema. */
  destroy(): Promise<void>;
}

export function testDatabase(name: BackendName): TestDatabase {
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-test-'));
  const pgSchema = name === 'postgres' ? `t_${randomBase62(12).toLowerCase()}` : undefined;
  const databaseUrl = name === 'postgres' ? pgUrl : undefined;
  return {
    dataDir,
    databaseUrl,
    pgSchema,
    open: () => openStore({ dataDir, databaseUrl, pgSchema }),
    async destroy() {
      rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl && pgSchema) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`);
        await client.end();
      }
    },
  };
}

/** A postgres URL whose connections use `schema` (for child server processes). */
export function urlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
