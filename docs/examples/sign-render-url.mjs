// Prints a signed render URL: what your backend does for an <img>, an og:image tag or an email
// (docs/api.md#signed-render-urls). The signing itself is @platen/client's `signRenderUrl`, the one
// test/render-url-helpers.test.ts checks against the service.
//
//   PLATEN_BASE_URL=https://platen.example.com PLATEN_URL_SECRET=urlsec_… \
//     node sign-render-url.mjs tpl_… headline="Summer sale"
import { signRenderUrl } from '@platen/client';

const [templateId, ...pairs] = process.argv.slice(2);
if (!templateId || !process.env.PLATEN_BASE_URL || !process.env.PLATEN_URL_SECRET) {
  console.error('usage: PLATEN_BASE_URL=… PLATEN_URL_SECRET=urlsec_… node sign-render-url.mjs TEMPLATE_ID [name=value…]');
  process.exit(2);
}
const variables = Object.fromEntries(
  pairs.map((pair) => {
    const eq = pair.indexOf('=');
    return eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
  }),
);
const url = await signRenderUrl({
  baseUrl: process.env.PLATEN_BASE_URL,
  templateId,
  format: 'png',
  variables,
  expiresAt: new Date(Date.now() + 7 * 86400 * 1000), // optional: a week
  secret: process.env.PLATEN_URL_SECRET,
});
console.log(url);
