/**
 * The Redis limiter: the conformance suite against a real Redis (PLATEN_TEST_REDIS_URL), what only
 * it has (TTLs, the EVAL fallback, recovery), and its failure policy against loopback servers that
 * refuse or never answer (those need no Redis and always run).
 */
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRateLimiter } from './conformance.ts';
import { createRateLimiter, MemoryRateLimiter } from './index.ts';
import { RedisRateLimiter } from './redis.ts';

const redisUrl = process.env.PLATEN_TEST_REDIS_URL;
const skipReason = redisUrl ? undefined : 'PLATEN_TEST_REDIS_URL not set';
/** One prefix per test run, so parallel runs never share buckets and cleanup finds everything. */
const runPrefix = `platen-test:ratelimit:${process.pid}:${randomBytes(4).toString('hex')}:`;

async function deleteRunKeys(url: string): Promise<void> {
  const admin = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 500);
      if (keys.length > 0) await admin.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await admin.quit();
  }
}

describeRateLimiter(
  'redis',
  async () => {
    const url = redisUrl ?? '';
    return {
      open: async (perMinute) => new RedisRateLimiter({ perMinute, redisUrl: url, keyPrefix: runPrefix }),
      shared: true,
      dispose: () => deleteRunKeys(url),
    };
  },
  { skipReason },
);

interface Warned {
  message: string;
  error: unknown;
}

/** A loopback TCP server that accepts connections and never answers: a hung Redis. */
async function silentServer(port = 0): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, sockets };
}

async function stop(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('RedisRateLimiter when Redis is unreachable (fails open to per-instance limits)', () => {
  it('answers within the command timeout when Redis never replies, then limits locally', async () => {
    const { server, port, sockets } = await silentServer();
    const warned: Warned[] = [];
    const limiter = new RedisRateLimiter({
      perMinute: 2,
      redisUrl: `redis://127.0.0.1:${port}`,
      // Long enough that a degraded answer (no wait) and a waited one cannot be confused on a loaded
      // machine: the bounds below only tell the two apart.
      commandTimeoutMs: 1_500,
      warn: (message, error) => warned.push({ message, error }),
    });
    try {
      const started = performance.now();
      expect(await limiter.take('k')).toMatchObject({ allowed: true, remaining: 1 });
      expect(performance.now() - started).toBeLessThan(10_000); // one timeout, not a hang
      expect(warned).toHaveLength(1);
      expect(warned[0]?.message).toMatch(/cannot reach Redis/);

      // Degraded: no more waiting on Redis, and the local bucket still enforces the limit.
      const again = performance.now();
      expect((await limiter.take('k')).allowed).toBe(true);
      expect(await limiter.take('k')).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
      expect(performance.now() - again).toBeLessThan(1_000); // less than one command timeout
      expect(warned).toHaveLength(1);
    } finally {
      await limiter.close();
      await stop(server, sockets);
    }
  });

  it('answers promptly when the connection is refused', async () => {
    const { server, port, sockets } = await silentServer();
    await stop(server, sockets); // the port is now closed
    const warned: Warned[] = [];
    const limiter = new RedisRateLimiter({
      perMinute: 5,
      redisUrl: `redis://127.0.0.1:${port}`,
      commandTimeoutMs: 5_000,
      warn: (message, error) => warned.push({ message, error }),
    });
    try {
      const started = performance.now();
      expect((await limiter.take('k')).allowed).toBe(true);
      // A refused connection answers at once, well inside the (long) command timeout.
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(warned).toHaveLength(1);
    } finally {
      await limiter.close();
    }
  });
});

describe('createRateLimiter', () => {
  it('turns the limit off for 0 and refuses a bad figure', async () => {
    expect(await createRateLimiter({ perMinute: 0 })).toBeNull();
    expect(await createRateLimiter({ perMinute: 0, redisUrl: 'redis://127.0.0.1:1' })).toBeNull();
    await expect(createRateLimiter({ perMinute: -1 })).rejects.toThrow(RangeError);
  });

  it('limits in memory without a Redis URL', async () => {
    const limiter = await createRateLimiter({ perMinute: 3 });
    expect(limiter).toBeInstanceOf(MemoryRateLimiter);
    await limiter?.close();
  });

  it('shares limits through Redis with a URL', async () => {
    const limiter = await createRateLimiter({
      perMinute: 3,
      redisUrl: 'redis://127.0.0.1:1',
      warn: () => {},
    });
    expect(limiter).toBeInstanceOf(RedisRateLimiter);
    await limiter?.close();
  });
});

describe.skipIf(skipReason !== undefined)(
  `RedisRateLimiter on a real Redis${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const url = redisUrl ?? '';
    const admin = new Redis(url, { lazyConnect: true });
    const limiters: RedisRateLimiter[] = [];
    const open = (
      perMinute: number,
      extra: Partial<ConstructorParameters<typeof RedisRateLimiter>[0]> = {},
    ) => {
      const limiter = new RedisRateLimiter({ perMinute, redisUrl: url, keyPrefix: runPrefix, ...extra });
      limiters.push(limiter);
      return limiter;
    };
    const freshKey = () => `key_${randomBytes(6).toString('hex')}`;

    afterAll(async () => {
      for (const limiter of limiters) await limiter.close();
      await admin.quit();
      await deleteRunKeys(url);
    });

    it('stores a drained bucket with a TTL of at most one minute and none for a full one', async () => {
      const limiter = open(60);
      const key = freshKey();
      await limiter.take(key, 30);
      const ttl = await admin.pttl(runPrefix + key);
      expect(ttl).toBeGreaterThan(29_000);
      expect(ttl).toBeLessThanOrEqual(31_000);
      await limiter.take(key, 60); // refused: nothing changes
      expect(await admin.pttl(runPrefix + key)).toBeLessThanOrEqual(ttl);
      const untouched = freshKey();
      expect((await limiter.take(untouched, 61)).allowed).toBe(false); // more than the capacity
      expect(await admin.exists(runPrefix + untouched)).toBe(0); // a full bucket is no key at all
    });

    it('falls back to EVAL when Redis has forgotten the script', async () => {
      const limiter = open(10);
      const key = freshKey();
      expect((await limiter.take(key)).remaining).toBe(9);
      await admin.script('FLUSH');
      expect((await limiter.take(key)).remaining).toBe(8);
    });

    it('lets two instances drain one bucket concurrently', async () => {
      // Each instance takes half at once; the script's atomicity and Redis's one clock make the sum exact.
      const [a, b] = [open(6), open(6)];
      const key = freshKey();
      await Promise.all([a.take(key, 3), b.take(key, 3)]);
      expect(await a.take(key)).toMatchObject({ allowed: false, remaining: 0 });
      expect((await b.take(key)).retryAfterSeconds).toBe(10);
    });

    it('returns to Redis after an outage and says so', async () => {
      const target = new URL(url);
      const hung = await silentServer();
      const warned: string[] = [];
      const limiter = open(4, {
        redisUrl: `redis://127.0.0.1:${hung.port}`,
        commandTimeoutMs: 200,
        degradedMs: 100,
        warn: (message) => warned.push(message),
      });
      const key = freshKey();
      expect((await limiter.take(key)).allowed).toBe(true); // local fallback
      await stop(hung.server, hung.sockets);
      // The "Redis" comes back on the same port: a proxy to the real one.
      const proxy = createServer((client) => {
        const upstream = createConnection(Number(target.port || 6379), target.hostname);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve) => proxy.listen(hung.port, '127.0.0.1', resolve));
      try {
        const deadline = performance.now() + 10_000;
        while (warned.length < 2 && performance.now() < deadline) {
          await sleep(150);
          await limiter.take(key);
        }
        expect(warned).toEqual([expect.stringMatching(/cannot reach Redis/), expect.stringMatching(/again/)]);
        expect(await admin.exists(runPrefix + key)).toBe(1);
      } finally {
        await limiter.close();
        proxy.close();
      }
    });
  },
);
