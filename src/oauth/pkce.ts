/** PKCE (RFC 7636): S256 only (§4.2); verifier and challenge shapes (§4.1, §4.2); the check (§4.6). */
import { createHash } from 'node:crypto';
import { constantTimeEqual } from '../core/ids.ts';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** BASE64URL of a SHA-256: 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isCodeChallenge = (value: string): boolean => CHALLENGE.test(value);

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  return constantTimeEqual(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge);
}
