/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, spec "Signature scheme"): the secret
 * is `whsec_` + base64 of 32 random bytes and the HMAC key is those decoded bytes; the signature is
 * `v1,` + base64(HMAC-SHA256(key, "<msg id>.<unix seconds>.<body>")), sent with `webhook-id` and
 * `webhook-timestamp`. Byte-exact with the `standardwebhooks` library (tested against it).
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key a secret stands for (the decoded bytes after `whsec_`). */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${messageId}.${timestamp}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three Standard Webhooks headers for one attempt (`timestamp` in unix seconds). */
export function signedHeaders(
  secret: string,
  messageId: string,
  timestamp: number,
  body: string,
): SignedHeaders {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, messageId, timestamp, body),
  };
}
