/**
 * Configuration from environment variables only, validated once at start. A bad value stops the
 * start with a message naming the variable; an unknown PLATEN_* variable is reported as a warning.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * Which peers' `X-Forwarded-For` the service believes for a request's client address: none (false),
 * the nearest n hops whatever their address, or the proxies with these addresses or CIDRs.
 */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges, accepted beside addresses and CIDRs. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const text = value?.trim() ?? '';
    if (text === '' || text === '0') return false;
    if (/^\d+$/.test(text)) {
      const hops = Number(text);
      if (hops <= 16) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count is at most 16' });
      return z.NEVER;
    }
    if (text === 'true') {
      ctx.addIssue({
        code: 'custom',
        message: 'name the proxies (addresses or CIDRs) or a hop count: true would believe any client',
      });
      return z.NEVER;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isAddressOrCidr(entry));
    if (bad.length === 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message: `not an address, CIDR, loopback, linklocal or uniquelocal: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    });
    return z.NEVER;
  });

/** Every variable the service reads, with its default. Keys are the variable names. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PLATEN_HOST: z.string().min(1).default('0.0.0.0'),
  // The reverse proxies whose X-Forwarded-For gives the client address (request.ip); none by default.
  PLATEN_TRUST_PROXY: trustProxy,
  PLATEN_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  PLATEN_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  PLATEN_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PLATEN_LOG_LEVEL: logLevel.default('info'),
  PLATEN_S3_BUCKET: z.string().min(1).optional(),
  PLATEN_S3_REGION: z.string().min(1).default('us-east-1'),
  PLATEN_S3_ENDPOINT: z.url().optional(),
  PLATEN_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  PLATEN_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  PLATEN_S3_FORCE_PATH_STYLE: bool.default(false),
  PLATEN_S3_PREFIX: z.string().default(''),
  PLATEN_ALLOW_PRIVATE_URLS: bool.default(false),
  PLATEN_BOOTSTRAP: bool.default(true),
  PLATEN_MAX_BODY_BYTES: positiveInt.default(5 * 1024 * 1024),
  PLATEN_MAX_ASSET_BYTES: positiveInt.default(20 * 1024 * 1024),
  PLATEN_RENDER_RATE_LIMIT: nonNegativeInt.default(600),
  PLATEN_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  PLATEN_RENDER_WORKERS: positiveInt.optional(),
  // What this instance runs (docs/operations.md): everything, only the API, or only background renders.
  PLATEN_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  // Where background renders wait: BullMQ over PLATEN_REDIS_URL when it is set, else the database.
  PLATEN_QUEUE: z.enum(['database', 'bullmq']).optional(),
  PLATEN_RENDER_QUEUE: positiveInt.default(256),
  PLATEN_RENDER_TIMEOUT_MS: positiveInt.default(30_000),
  // Motion (docs/configuration.md): videos render beside stills, at most this many at once (each
  // holds a render process and an encoder for its whole length), each under its own time limit.
  PLATEN_VIDEO_CONCURRENCY: positiveInt.default(1),
  PLATEN_VIDEO_TIMEOUT_MS: positiveInt.default(120_000),
  // The ffmpeg program videos are encoded (and video assets decoded) with, and the ffprobe program
  // uploads of video and audio are probed with: read where they run (src/engine, src/assets),
  // validated here. Default: the ones @ffmpeg-installer and @ffprobe-installer ship.
  PLATEN_FFMPEG: z.string().min(1).optional(),
  PLATEN_FFPROBE: z.string().min(1).optional(),
  PLATEN_RENDER_RECYCLE_RSS_MB: positiveInt.default(600),
  PLATEN_RENDER_MAX_RSS_MB: positiveInt.default(1500),
  PLATEN_RENDER_RETENTION_DAYS: nonNegativeInt.default(0),
  PLATEN_WEBHOOK_TIMEOUT_MS: positiveInt.max(60_000).default(10_000),
  // How long an instance holds a webhook delivery it claimed before another may take it: with
  // PostgreSQL, how soon a crashed instance's in-flight deliveries are sent again. At least the
  // attempt's time limit plus WEBHOOK_LEASE_MARGIN_MS (checked below); default: limit + 30 s.
  PLATEN_WEBHOOK_LEASE_MS: positiveInt.max(24 * 60 * 60 * 1000).optional(),
  PLATEN_SHUTDOWN_GRACE_MS: positiveInt.max(10 * 60 * 1000).default(20_000),
  PLATEN_URL_SECRET_GRACE_SECONDS: nonNegativeInt.max(30 * 86_400).default(86_400),
  // OAuth (docs/oauth.md): token lifetimes, registrations per client address, sign-in sessions and
  // the brute-force limits (failures within the window, per account and per client address).
  PLATEN_OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt.min(60).max(86_400).default(900),
  PLATEN_OAUTH_REFRESH_TOKEN_TTL_SECONDS: positiveInt
    .min(300)
    .max(365 * 86_400)
    .default(30 * 86_400),
  PLATEN_OAUTH_REGISTRATIONS_PER_HOUR: nonNegativeInt.default(30),
  PLATEN_SIGNIN_SESSION_TTL_SECONDS: positiveInt
    .min(60)
    .max(30 * 86_400)
    .default(12 * 3600),
  PLATEN_SIGNIN_MAX_FAILURES_PER_ACCOUNT: positiveInt.default(10),
  PLATEN_SIGNIN_MAX_FAILURES_PER_ADDRESS: positiveInt.default(50),
  PLATEN_SIGNIN_LOCKOUT_WINDOW_SECONDS: positiveInt.max(86_400).default(900),
  // Cache budgets in MB (docs/configuration.md). The render processes read the PLATEN_CACHE_*
  // ones themselves (engine/backends/cache-limits.ts, same defaults); they are validated here.
  PLATEN_CACHE_JOB_INPUTS_MB: nonNegativeInt.default(128),
  PLATEN_CACHE_DECODED_IMAGES_MB: nonNegativeInt.default(160),
  PLATEN_CACHE_DRAWABLES_MB: nonNegativeInt.default(128),
  PLATEN_CACHE_FETCHED_IMAGES_MB: nonNegativeInt.default(64),
  PLATEN_CACHE_DATA_URIS_MB: nonNegativeInt.default(32),
  PLATEN_CACHE_FONTS_MB: nonNegativeInt.default(64),
  PLATEN_CACHE_RENDER_BASES_MB: nonNegativeInt.default(64),
  PLATEN_CACHE_PDF_IMAGES_MB: nonNegativeInt.default(64),
  PLATEN_CACHE_PROCESS_ASSETS_MB: nonNegativeInt.default(64),
});

/** A lease outlives its attempt by this much at least, so the attempt is recorded by its holder. */
export const WEBHOOK_LEASE_MARGIN_MS = 1_000;

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  baseUrl: string;
  /** PLATEN_QUEUE as decided: given, or from whether Redis is configured. */
  queue: 'database' | 'bullmq';
  dataDir: string;
  s3: null | {
    bucket: string;
    region: string;
    endpoint?: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    forcePathStyle: boolean;
    prefix: string;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const known = new Set(Object.keys(envSchema.shape));

/** Unknown PLATEN_* variables: likely typos, worth a warning. */
export function unknownPlatenVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env).filter((name) => name.startsWith('PLATEN_') && !known.has(name));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${String(i.path[0] ?? '?')}: ${i.message}`));
  }
  const e = parsed.data;
  if (
    e.PLATEN_WEBHOOK_LEASE_MS !== undefined &&
    e.PLATEN_WEBHOOK_LEASE_MS < e.PLATEN_WEBHOOK_TIMEOUT_MS + WEBHOOK_LEASE_MARGIN_MS
  ) {
    throw new ConfigError([
      `PLATEN_WEBHOOK_LEASE_MS: must be at least PLATEN_WEBHOOK_TIMEOUT_MS + ${WEBHOOK_LEASE_MARGIN_MS} (${e.PLATEN_WEBHOOK_TIMEOUT_MS + WEBHOOK_LEASE_MARGIN_MS})`,
    ]);
  }
  if (e.PLATEN_ROLE !== 'all' && !e.DATABASE_URL)
    throw new ConfigError([
      `PLATEN_ROLE: ${e.PLATEN_ROLE} needs DATABASE_URL (the embedded database belongs to one process)`,
    ]);
  if (e.PLATEN_QUEUE === 'bullmq' && !e.PLATEN_REDIS_URL)
    throw new ConfigError(['PLATEN_QUEUE: bullmq needs PLATEN_REDIS_URL']);
  const queue = e.PLATEN_QUEUE ?? (e.PLATEN_REDIS_URL ? 'bullmq' : 'database');
  const baseUrl = (e.PLATEN_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const s3 = e.PLATEN_S3_BUCKET
    ? {
        bucket: e.PLATEN_S3_BUCKET,
        region: e.PLATEN_S3_REGION,
        endpoint: e.PLATEN_S3_ENDPOINT,
        accessKeyId: e.PLATEN_S3_ACCESS_KEY_ID,
        secretAccessKey: e.PLATEN_S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.PLATEN_S3_FORCE_PATH_STYLE,
        prefix: e.PLATEN_S3_PREFIX,
      }
    : null;
  return { ...e, baseUrl, dataDir: resolve(e.PLATEN_DATA_DIR), s3, queue };
}
