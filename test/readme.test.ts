/**
 * The README's quick start, as a newcomer runs it: its shell lines, taken from the README itself,
 * against a fresh `npm start` (first-start key included). The last line must print the URL of a PNG
 * that the service serves. Only the port differs (a free one instead of 3000).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServiceProcess, startService } from './harness/process.ts';

const root = new URL('..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const quickStart = readme.slice(
  readme.indexOf('## Quick start'),
  readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1),
);
const shellBlocks = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

describe('README quick start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platen-readme-'));
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts with npm ci && npm start, and its curl lines print the URL of a rendered PNG', async () => {
    expect(shellBlocks[0]?.trim()).toBe('npm ci && npm start');
    const script = shellBlocks.find((block) => block.includes('/render'));
    expect(script).toBeDefined();
    service = await startService({ PLATEN_DATA_DIR: dataDir });
    const key = /PLATEN_API_KEY=(plt_[0-9A-Za-z]+)/.exec(service.output())?.[1];
    expect(key, service.output()).toBeDefined();
    const port = new URL(service.base).port;
    const lines = (script ?? '')
      .replace(/^export PLATEN_API_KEY=.*$/m, `export PLATEN_API_KEY=${key}`)
      .replaceAll('localhost:3000', `127.0.0.1:${port}`);
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', lines], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const url = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/renders\/.+\.png$/);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    const card = JSON.parse(readFileSync(join(root, 'src/design/fixtures/promo-card.json'), 'utf8'));
    expect([meta.width, meta.height]).toEqual([card.pages[0].width, card.pages[0].height]);
  }, 90_000);
});
