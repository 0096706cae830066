/**
 * OAuth test helpers: people through the operator API, and a person in a browser — fetch with a
 * cookie jar and `redirect: 'manual'` — who follows an authorization URL through the real sign-in
 * and consent pages, sends the forms as a browser would (Origin of the service), and stops at the
 * first redirect that leaves the service: the client's callback (code, state, iss, or error).
 */
import { admin } from './server.ts';

export interface CreatedUser {
  id: string;
  email: string;
  workspaceIds: string[];
  createdAt: string;
}

export async function createUser(
  base: string,
  user: { email: string; password: string; workspaceIds: readonly string[] },
): Promise<CreatedUser> {
  const res = await admin(base, 'POST', '/users', {
    email: user.email,
    password: user.password,
    workspaceIds: user.workspaceIds,
  });
  if (res.status !== 201) throw new Error(`user: ${res.status} ${res.bytes.toString()}`);
  return res.json as CreatedUser;
}

export interface BrowserPerson {
  email: string;
  password: string;
  /** The workspace to pick on the consent page; default: the one preselected. */
  workspaceId?: string;
  /** Press "Deny" instead of "Allow". */
  deny?: boolean;
  /** Cookies kept between calls (a person who signed in before); a new jar by default. */
  jar?: CookieJar;
}

/** The cookies of one origin, as a browser keeps them (name → value). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone || !value) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export interface Form {
  action: string;
  fields: Record<string, string>;
  /** `name → [values]` of each select, and the selected value. */
  selects: Record<string, { options: string[]; selected: string | undefined }>;
  /** `formaction` of each button, by its text. */
  buttons: Record<string, string | undefined>;
}

const attr = (tag: string, name: string): string | undefined => {
  const value = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
  return value === undefined ? undefined : unescapeHtml(value);
};

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The first form of a page, as a browser would submit it. */
export function parseForm(html: string): Form | null {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const [, formAttrs = '', inner = ''] = form;
  const fields: Record<string, string> = {};
  for (const [input] of inner.matchAll(/<input\b[^>]*>/gi)) {
    const name = attr(input, 'name');
    if (name) fields[name] = attr(input, 'value') ?? '';
  }
  const selects: Form['selects'] = {};
  for (const [, selectAttrs = '', body = ''] of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
    const name = attr(` ${selectAttrs}`, 'name') ?? '';
    const options = [...body.matchAll(/<option\b([^>]*)>/gi)].map(([, a = '']) => ({
      value: attr(` ${a}`, 'value') ?? '',
      selected: /\sselected\b/i.test(` ${a}`),
    }));
    selects[name] = {
      options: options.map((o) => o.value),
      selected: options.find((o) => o.selected)?.value,
    };
  }
  const buttons: Form['buttons'] = {};
  for (const [, buttonAttrs = '', text = ''] of inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi))
    buttons[text.trim()] = attr(` ${buttonAttrs}`, 'formaction');
  return { action: attr(` ${formAttrs}`, 'action') ?? '', fields, selects, buttons };
}

/** A page of the service: GET with the jar's cookies, no redirect followed. */
export async function browse(url: string, jar: CookieJar, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.take(response);
  return response;
}

/** Posts a form as a browser on `origin` would. */
export function submit(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
  origin: string,
): Promise<Response> {
  return browse(url, jar, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Follows `authorizeUrl` as a person: signs in when asked, then allows (or denies) on the consent
 * page, and answers the URL of the first redirect that leaves the service (the client's callback).
 * Throws on any page it does not expect (an error page, a form it cannot fill).
 */
export async function authorizeInBrowser(authorizeUrl: string, person: BrowserPerson): Promise<string> {
  const jar = person.jar ?? new CookieJar();
  const origin = new URL(authorizeUrl).origin;
  let response = await browse(authorizeUrl, jar);
  let url = authorizeUrl;
  for (let step = 0; step < 12; step++) {
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location') ?? '', url);
      if (next.origin !== origin) return next.href;
      url = next.href;
      response = await browse(url, jar);
      continue;
    }
    const html = await response.text();
    const form = response.status === 200 ? parseForm(html) : null;
    if (!form) throw new Error(`unexpected page ${response.status} at ${url}: ${html.slice(0, 500)}`);
    if ('password' in form.fields) {
      const fields = { ...form.fields, email: person.email, password: person.password };
      response = await submit(new URL(form.action, url).href, jar, fields, origin);
    } else if ('Allow' in form.buttons && 'Deny' in form.buttons) {
      const select = form.selects.workspace;
      const workspace = person.workspaceId ?? select?.selected ?? '';
      const action = person.deny ? (form.buttons.Deny ?? form.action) : form.action;
      response = await submit(new URL(action, url).href, jar, { ...form.fields, workspace }, origin);
    } else {
      throw new Error(`unexpected form at ${url}: ${html.slice(0, 500)}`);
    }
    url = response.url || url;
  }
  throw new Error(`too many steps from ${authorizeUrl}`);
}
