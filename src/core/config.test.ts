import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, unknownPlatenVariables } from './config.ts';

describe('configuration', () => {
  it('has working defaults for the embedded deployment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.s3).toBeNull();
    expect(config.PLATEN_RENDER_RATE_LIMIT).toBe(600);
    expect(config.PLATEN_RENDER_RECYCLE_RSS_MB).toBe(600);
    expect(config.PLATEN_RENDER_MAX_RSS_MB).toBe(1500);
    expect(config.PLATEN_WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(config.PLATEN_WEBHOOK_LEASE_MS).toBeUndefined();
    expect(config.PLATEN_OAUTH_ACCESS_TOKEN_TTL_SECONDS).toBe(900);
    expect(config.PLATEN_OAUTH_REFRESH_TOKEN_TTL_SECONDS).toBe(30 * 86_400);
    expect(config.PLATEN_OAUTH_REGISTRATIONS_PER_HOUR).toBe(30);
    expect(config.PLATEN_SIGNIN_SESSION_TTL_SECONDS).toBe(12 * 3600);
    expect(config.PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT).toBe(10);
    expect(config.PLATEN_SIGNIN_MAX_FAILURES_PER_ADDRESS).toBe(50);
    expect(config.PLATEN_SIGNIN_LOCKOUT_WINDOW_SECONDS).toBe(900);
  });

  it('derives the base URL from PORT and strips a trailing slash from PLATEN_BASE_URL', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PLATEN_BASE_URL: 'https://render.example.com/' }).baseUrl).toBe(
      'https://render.example.com',
    );
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PLATEN_BASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['PLATEN_LOG_LEVEL', 'loud'],
    ['PLATEN_ALLOW_PRIVATE_URLS', 'maybe'],
    ['PLATEN_RENDER_RATE_LIMIT', '-1'],
    ['PLATEN_ADMIN_TOKEN', 'short'],
    ['PLATEN_REDIS_URL', 'http://x'],
    ['PLATEN_RENDER_MAX_RSS_MB', '0'],
    ['PLATEN_RENDER_RECYCLE_RSS_MB', 'lots'],
    ['PLATEN_WEBHOOK_TIMEOUT_MS', '0'],
    ['PLATEN_WEBHOOK_TIMEOUT_MS', '600000'],
    ['PLATEN_WEBHOOK_LEASE_MS', '0'],
    ['PLATEN_WEBHOOK_LEASE_MS', 'soon'],
    // Shorter than the default attempt limit (10 s) plus the margin.
    ['PLATEN_WEBHOOK_LEASE_MS', '10500'],
    ['PLATEN_OAUTH_ACCESS_TOKEN_TTL_SECONDS', '59'],
    ['PLATEN_OAUTH_ACCESS_TOKEN_TTL_SECONDS', '86401'],
    ['PLATEN_OAUTH_REFRESH_TOKEN_TTL_SECONDS', 'forever'],
    ['PLATEN_OAUTH_REGISTRATIONS_PER_HOUR', '-1'],
    ['PLATEN_SIGNIN_SESSION_TTL_SECONDS', '0'],
    ['PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT', '0'],
    ['PLATEN_SIGNIN_MAX_FAILURES_PER_ADDRESS', 'many'],
    ['PLATEN_SIGNIN_LOCKOUT_WINDOW_SECONDS', '0'],
  ])('stops on a bad %s, naming it', (name, value) => {
    try {
      loadConfig({ [name]: value });
      expect.unreachable('loadConfig should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(name);
    }
  });

  it('queues on BullMQ when Redis is configured, and gives roles only to a shared database', () => {
    expect(loadConfig({}).queue).toBe('database');
    expect(loadConfig({ PLATEN_REDIS_URL: 'redis://r:6379' }).queue).toBe('bullmq');
    expect(loadConfig({ PLATEN_REDIS_URL: 'redis://r:6379', PLATEN_QUEUE: 'database' }).queue).toBe(
      'database',
    );
    expect(() => loadConfig({ PLATEN_QUEUE: 'bullmq' })).toThrow(/PLATEN_QUEUE/);
    expect(() => loadConfig({ PLATEN_ROLE: 'worker' })).toThrow(/PLATEN_ROLE/);
    expect(() => loadConfig({ PLATEN_ROLE: 'boss' })).toThrow(/PLATEN_ROLE/);
    expect(loadConfig({ PLATEN_ROLE: 'api', DATABASE_URL: 'postgres://db/p' }).PLATEN_ROLE).toBe('api');
  });

  it('takes a webhook lease that outlives the attempt time limit', () => {
    expect(loadConfig({ PLATEN_WEBHOOK_LEASE_MS: '11000' }).PLATEN_WEBHOOK_LEASE_MS).toBe(11_000);
    const short = { PLATEN_WEBHOOK_TIMEOUT_MS: '2000', PLATEN_WEBHOOK_LEASE_MS: '3000' };
    expect(loadConfig(short).PLATEN_WEBHOOK_LEASE_MS).toBe(3_000);
    expect(() => loadConfig({ ...short, PLATEN_WEBHOOK_TIMEOUT_MS: '2500' })).toThrow(
      /PLATEN_WEBHOOK_LEASE_MS: must be at least/,
    );
  });

  it('configures S3 when a bucket is named', () => {
    const config = loadConfig({
      PLATEN_S3_BUCKET: 'b',
      PLATEN_S3_ENDPOINT: 'http://127.0.0.1:9000',
      PLATEN_S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toMatchObject({
      bucket: 'b',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      region: 'us-east-1',
    });
  });

  it('lists unknown PLATEN_ variables (likely typos) and nothing else', () => {
    expect(unknownPlatenVariables({ PLATEN_PORT: '1', PLATEN_LOG_LEVEL: 'info', HOME: '/root' })).toEqual([
      'PLATEN_PORT',
    ]);
  });
});
