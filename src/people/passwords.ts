/**
 * Password hashing: argon2id (RFC 9106) through @node-rs/argon2, off the main thread, with the
 * OWASP minimum parameters, written out here so a library upgrade cannot change them silently:
 * m = 19456 KiB (19 MiB), t = 2 passes, p = 1 lane, 16-byte random salt, 32-byte output. The stored
 * PHC string carries its parameters, so they can be raised later without breaking old hashes.
 * A sign-in for an unknown email verifies against a dummy hash: the same work, the same time.
 */
import { hash, verify } from '@node-rs/argon2';

export const ARGON2_PARAMETERS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMETERS);
}

let dummy: Promise<string> | undefined;

/** True when `password` matches `stored`; with no stored hash, false after the same work. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummy ??= hashPassword('platen-dummy-password-for-equal-timing');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
