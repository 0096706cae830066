/**
 * Serves the MCP Apps test host (test/harness/mcp-app-host/host.ts, bundled for the browser with
 * esbuild) on its own loopback origin, apart from the Platen server it calls (CORS), as a real
 * host's page would be.
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { freePort } from './ports.ts';

export interface AppHostPage {
  url: string;
  close(): Promise<void>;
}

const HOST_ENTRY = fileURLToPath(new URL('./mcp-app-host/host.ts', import.meta.url));

const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title><link rel="icon" href="data:,">
<style>body{margin:0;padding:16px;font-family:system-ui;background:#f3f3f6}
iframe{width:760px;min-height:200px;border:1px solid #ccd;border-radius:8px;background:#fff;display:block}</style>
</head><body><script src="/host.js"></script></body></html>`;

export async function startAppHostPage(): Promise<AppHostPage> {
  const bundle = await build({
    entryPoints: [HOST_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const server: Server = createServer((request, response) => {
    if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(HTML);
    } else if (request.url === '/host.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
