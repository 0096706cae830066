/**
 * A tiny server for the editor's dev page: bundles studio/dev/editor-dev.ts with esbuild (JSX for
 * Preact, the CSS beside it) and serves the page, the bundle and the bundled TTF files from
 * node_modules. Used by test/studio-editor.test.ts; run it by hand with
 *   node --import tsx studio/dev/serve.ts [port]
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fontsDir = join(root, 'node_modules', '@expo-google-fonts');

export interface DevServer {
  url: string;
  close(): Promise<void>;
}

async function bundle(): Promise<Map<string, { type: string; body: Uint8Array }>> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['studio/dev/editor-dev.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: 'out',
    write: false,
    logLevel: 'silent',
  });
  const files = new Map<string, { type: string; body: Uint8Array }>();
  for (const file of result.outputFiles) {
    const name = `/${file.path.split('/').pop() ?? ''}`;
    files.set(name, { type: name.endsWith('.css') ? 'text/css' : 'text/javascript', body: file.contents });
  }
  const html = await readFile(join(root, 'studio', 'dev', 'editor.html'));
  files.set('/', { type: 'text/html', body: html });
  files.set('/editor.html', { type: 'text/html', body: html });
  return files;
}

export async function startDevServer(port = 0): Promise<DevServer> {
  let files = await bundle();
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // Each page load rebuilds (about 100 ms), so an edit shows on reload.
    if (path === '/' || path === '/editor.html') files = await bundle().catch(() => files);
    const file = files.get(path);
    if (file) {
      res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
      res.end(file.body);
      return;
    }
    if (path.startsWith('/fonts/') && extname(path) === '.ttf') {
      const target = normalize(join(fontsDir, path.slice('/fonts/'.length)));
      if (!target.startsWith(fontsDir)) {
        res.writeHead(403).end();
        return;
      }
      readFile(target).then(
        (body) => res.writeHead(200, { 'content-type': 'font/ttf' }).end(body),
        () => res.writeHead(404).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}/editor.html`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await startDevServer(Number(process.argv[2] ?? 5174));
  console.log(`editor dev page: ${server.url}`);
}
