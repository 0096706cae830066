/**
 * The sign-in cookies: HttpOnly, SameSite=Lax, Path=/, and on an https base URL `Secure` with the
 * `__Host-` prefix (RFC 6265bis §4.1.3.2: no Domain, so only this host ever gets it). The session
 * cookie holds the session; the device cookie marks a browser where the person signed in before
 * (lockout.ts: strangers' failures do not slow it down).
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface SessionCookie {
  name: string;
  /** The Set-Cookie value for `token`, living `maxAgeSeconds`. */
  set(token: string, maxAgeSeconds: number): string;
  clear(): string;
  read(headers: IncomingHttpHeaders): string | null;
}

export function sessionCookie(baseUrl: string): SessionCookie {
  return namedCookie(baseUrl, 'platen_session');
}

/** A year: the device cookie outlives sessions, as the device does. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 86_400;

export function deviceCookie(baseUrl: string): SessionCookie {
  return namedCookie(baseUrl, 'platen_device');
}

function namedCookie(baseUrl: string, baseName: string): SessionCookie {
  const secure = baseUrl.startsWith('https:');
  const name = secure ? `__Host-${baseName}` : baseName;
  const attributes = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return {
    name,
    set: (token, maxAge) => `${name}=${token}; Max-Age=${maxAge}; ${attributes}`,
    clear: () => `${name}=; Max-Age=0; ${attributes}`,
    read(headers) {
      for (const part of (headers.cookie ?? '').split(';')) {
        const eq = part.indexOf('=');
        if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
      }
      return null;
    },
  };
}
