// Serves studio-host.html on http://127.0.0.1:8080 as a customer's backend would: the page asks
// POST /token, and this script mints an embed session with Platen for a fixed demo user.
//   PLATEN_URL=http://localhost:3000 PLATEN_EMBED_ID=emb_… [PLATEN_API_KEY=plt_…] node docs/examples/mint-and-serve.mjs
// PLATEN_API_KEY is needed when the embed was created with mintRequiresApiKey (recommended).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

const platen = (process.env.PLATEN_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const embedId = process.env.PLATEN_EMBED_ID;
const port = Number(process.env.PORT ?? 8080);
if (!embedId) throw new Error('set PLATEN_EMBED_ID (create an embed with: platen admin … or POST /admin/v1/workspaces/:id/embeds)');

const page = (await readFile(new URL('./studio-host.html', import.meta.url), 'utf8'))
  .replaceAll('__PLATEN_URL__', platen)
  .replaceAll('__EMBED_ID__', embedId);

createServer(async (request, response) => {
  if (request.method === 'POST' && request.url === '/token') {
    const minted = await fetch(`${platen}/v1/embed/${embedId}/session`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(process.env.PLATEN_API_KEY ? { authorization: `Bearer ${process.env.PLATEN_API_KEY}` } : {}),
      },
      // Your own id for the signed-in user: each userId has its own private designs.
      body: JSON.stringify({ userId: 'demo-user' }),
    });
    response.writeHead(minted.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(await minted.text());
  } else if (request.method === 'GET' && request.url === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page);
  } else {
    response.writeHead(404).end();
  }
}).listen(port, '127.0.0.1', () => console.log(`host page on http://127.0.0.1:${port}/ (studio from ${platen})`));
