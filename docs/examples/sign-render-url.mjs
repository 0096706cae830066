// Signs a Platen render URL. Copy this function into your backend (Node 18+, no dependencies);
// docs/api.md#signed-render-urls explains the signature. test/render-url-helpers.test.ts checks
// that it signs exactly as the service verifies.
import { createHmac } from 'node:crypto';

/**
 * @param {{ baseUrl: string, templateId: string, format?: 'png' | 'jpeg' | 'pdf',
 *   variables?: Record<string, string>, options?: { scale?: number, quality?: number, pageId?: string },
 *   expiresAt?: Date, secret: string }} input
 * @returns {string} the URL to put in an <img>, an og:image tag or an email
 */
export function signRenderUrl({ baseUrl, templateId, format = 'png', variables = {}, options = {}, expiresAt, secret }) {
  const path = `/v1/templates/${templateId}/image.${format}`;
  const params = { ...variables };
  for (const [name, value] of Object.entries(options)) if (value !== undefined) params[name] = String(value);
  if (expiresAt) params.exp = String(Math.floor(expiresAt.getTime() / 1000));
  const pairs = Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sig = createHmac('sha256', secret).update(`${path}?${pairs.join('&')}`).digest('hex');
  return `${baseUrl.replace(/\/+$/, '')}${path}?${[...pairs, `sig=${sig}`].join('&')}`;
}
