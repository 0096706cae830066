/**
 * Signed render URLs (docs/api.md, Signed render URLs): a URL that renders a template with no key,
 * for <img> tags, og:image and emails. Byte for byte what the service verifies: the path, `?`, then
 * every `name=value` pair except `sig`, each encoded with `encodeURIComponent`, sorted, joined with
 * `&`; `sig` is the hex HMAC-SHA256 of that string keyed with the URL-signing secret (`urlsec_…`).
 * WebCrypto only, so it runs in Node 20+, Deno, Bun, edge runtimes and browsers alike.
 */
import type { RenderRequest, RenderResult } from './renders.ts';

export interface SignRenderUrlInput {
  /** The service's base URL, e.g. `https://platen.example.com`. */
  baseUrl: string;
  templateId: string;
  /** `png` unless given. */
  format?: RenderResult['format'];
  /** Template variables (modifications): name → value. */
  variables?: Record<string, string>;
  /** Render options, as in the render route (`fps`, `dither`: video; `timeMs`: png, jpeg, pdf). */
  options?: Pick<RenderRequest, 'pageId' | 'scale' | 'quality' | 'fps' | 'dither' | 'timeMs' | 'version'>;
  /** After it the URL answers 403 `URL_EXPIRED`; none: the URL does not expire. */
  expiresAt?: Date;
  /** A URL-signing secret of the template's workspace (`urlsec_…`). */
  secret: string;
}

/** Query names the service reads as options or the signature, so no variable may take them. */
const RESERVED = new Set(['pageId', 'scale', 'quality', 'fps', 'dither', 'timeMs', 'version', 'exp', 'sig']);

const bytes = (text: string) => new TextEncoder().encode(text);

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    bytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, bytes(message)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The signed URL. Throws `TypeError` for a variable named like an option, or no secret. */
export async function signRenderUrl(input: SignRenderUrlInput): Promise<string> {
  const { baseUrl, templateId, format = 'png', variables = {}, options = {}, expiresAt, secret } = input;
  if (!secret) throw new TypeError('secret is required (a URL-signing secret, urlsec_…)');
  const params: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(variables)) {
    if (RESERVED.has(name))
      throw new TypeError(`"${name}" is a render option, not a variable name, in a URL`);
    params.push([name, value]);
  }
  for (const [name, value] of Object.entries(options))
    if (value !== undefined) params.push([name, String(value)]);
  if (expiresAt) params.push(['exp', String(Math.floor(expiresAt.getTime() / 1000))]);
  const path = `/v1/templates/${encodeURIComponent(templateId)}/image.${format}`;
  const pairs = params
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    // Code-unit order, as the service sorts (not localeCompare).
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sig = await hmacHex(secret, `${path}?${pairs.join('&')}`);
  return `${baseUrl.replace(/\/+$/, '')}${path}?${[...pairs, `sig=${sig}`].join('&')}`;
}
