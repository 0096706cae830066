/**
 * Trusted devices (OWASP Authentication Cheat Sheet, "device cookies"): a browser where a person
 * signed in holds a cookie naming them, an HMAC under the deployment's key. An attempt from such a
 * browser is not slowed by the account-wide sign-in limit, so a stranger's failures from elsewhere
 * never hold back the person on the device they use. The cookie proves only that this browser
 * signed in as that person before; the password is still checked.
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../core/ids.ts';
import type { Store } from '../store/index.ts';

const KEY_NAME = 'device-cookie-key';

export class TrustedDevices {
  private key: Promise<string> | null = null;

  constructor(private readonly store: Store) {}

  /** The cookie value for a browser where `userId` just signed in. */
  async token(userId: string): Promise<string> {
    return createHmac('sha256', await this.signingKey())
      .update(`device:${userId}`)
      .digest('base64url');
  }

  /** Whether the cookie value is one `token(userId)` made. */
  async trusts(cookie: string | null, userId: string): Promise<boolean> {
    if (!cookie || cookie.length > 100) return false;
    return constantTimeEqual(cookie, await this.token(userId));
  }

  /** The deployment's key (store.meta.secret: the same on every instance). */
  private signingKey(): Promise<string> {
    this.key ??= this.store.meta.secret(KEY_NAME);
    return this.key;
  }
}
