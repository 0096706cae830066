/**
 * The sign-in session cookie: HttpOnly, SameSite=Lax, Path=/, and on an https base URL `Secure`
 * with the `__Host-` prefix (RFC 6265bis §4.1.3.2: no Domain, so only this host ever gets it).
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
  const secure = baseUrl.startsWith('https:');
  const name = secure ? '__Host-platen_session' : 'platen_session';
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
