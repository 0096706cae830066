/**
 * Writes the OpenAPI document the service serves at `/openapi.json` to test/.tmp/openapi.json (or
 * the path given), without listening on a port: the app is built on a throwaway data directory,
 * asked for `/openapi.json` through `app.inject`, then closed and the directory removed. With
 * `--types` it also writes the client types (clients/typescript/src/openapi.ts).
 * `npm run lint:openapi` lints the document; `npm run openapi:types` refreshes the types.
 *
 *   node --import tsx scripts/openapi.ts [--types] [out.json]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/core/config.ts';
import { createLogger } from '../src/core/logger.ts';
import { createServices } from '../src/services.ts';
import { openApiTypes, ROOT, TYPES_PATH } from './openapi-types.ts';

const args = process.argv.slice(2);
const withTypes = args.includes('--types');
const out = resolve(args.find((arg) => !arg.startsWith('--')) ?? join(ROOT, 'test/.tmp/openapi.json'));
let document: object | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'platen-openapi-'));
try {
  const config = loadConfig({
    PLATEN_DATA_DIR: dataDir,
    PLATEN_LOG_LEVEL: 'silent',
    PLATEN_RENDER_WORKERS: '1',
  });
  const logger = createLogger('silent');
  const services = await createServices(config, logger);
  try {
    const { app } = await buildApp(services, logger);
    try {
      const response = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (response.statusCode !== 200) throw new Error(`/openapi.json answered ${response.statusCode}`);
      document = response.json();
    } finally {
      await app.close();
    }
  } finally {
    await services.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
console.log(`OpenAPI document written to ${out}`);
if (withTypes && document) {
  writeFileSync(TYPES_PATH, await openApiTypes(document));
  console.log(`Client types written to ${TYPES_PATH}`);
}
