/**
 * Opaque, prefixed identifiers with 128 random bits, and API key material.
 * Ids say what they name (`tpl_…`) and nothing else; keys are base62 and never stored in clear.
 */
import { hash, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

export const idPrefixes = {
  workspace: 'ws',
  template: 'tpl',
  render: 'rnd',
  asset: 'ast',
  embed: 'emb',
  apiKey: 'key',
  webhook: 'whk',
  urlSecret: 'uss',
  batch: 'bat',
  audit: 'aud',
  user: 'usr',
  ledger: 'led',
  file: 'fil',
} as const;

export type IdKind = keyof typeof idPrefixes;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from a pool refilled 4 KB at a time (as crypto.randomUUID does): a call
// to randomBytes per id cost a few per cent of a replayed render's CPU.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] ?? 0;
  // Spent bytes are cleared: a later reader of this memory learns nothing about ids handed out.
  pool[poolOffset++] = 0;
  return byte;
}

/** Uniform base62 string of `length` characters (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** 22 base62 characters ≈ 131 bits. */
export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${randomBase62(22)}`;
}

const ID_SHAPE = /^[a-z]{2,3}_[0-9A-Za-z]{16,40}$/;

/** True when `value` has the shape of an id of `kind`; malformed ids are simply not found. */
export function isIdOf(kind: IdKind, value: string): boolean {
  return value.startsWith(`${idPrefixes[kind]}_`) && ID_SHAPE.test(value);
}

export const API_KEY_PREFIX = 'plt_';
const API_KEY_SHAPE = /^plt_[0-9A-Za-z]{32,64}$/;

export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBase62(40)}`;
}

export function isApiKeyShape(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}

/** One-shot `hash`: about a third of `createHash` for the short texts of every request (keys, identities). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A url-safe random token for capability URLs and session tokens. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
