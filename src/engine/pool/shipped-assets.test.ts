/**
 * Asset bytes cross to a render process once: the second job naming an asset sends only its id,
 * and renders exactly as in process. A process that has dropped an asset (here: a zero budget
 * keeps only the last one) asks for the job again, whole, and the render still succeeds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { documentOf, testPhoto } from '../goldens/harness.ts';
import { renderInProcess } from '../render.ts';
import type { RenderJob } from '../types.ts';
import { RenderPool } from './pool.ts';
import { ShippedAssets } from './shipped-assets.ts';

async function photoJob(ids: string[]): Promise<RenderJob> {
  const assets: RenderJob['assets'] = {};
  for (const [index, id] of ids.entries())
    assets[id] = {
      bytes: new Uint8Array(await testPhoto(120 + index * 10, 80, 'jpeg')),
      mimeType: 'image/jpeg',
    };
  const document = documentOf([
    {
      id: 'p',
      width: 240,
      height: 100,
      background: '#ffffff',
      elements: ids.map((id, index) => ({
        id: `i${index}`,
        type: 'image',
        x: index * 120,
        y: 0,
        width: 120,
        height: 100,
        src: `asset:${id}`,
      })),
    },
  ]);
  return { document, pageIds: ['p'], format: 'png', workspaceId: 'ws', assets, fonts: [] };
}

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('assets shipped to render processes once', () => {
  it('sends known assets as ids only', async () => {
    const shipped = new ShippedAssets();
    const job = await photoJob(['ast_a', 'ast_b']);
    expect(Object.keys(shipped.split(job).job.assets).sort()).toEqual(['ast_a', 'ast_b']);
    const again = shipped.split(job);
    expect([Object.keys(again.job.assets), again.knownAssets.sort()]).toEqual([[], ['ast_a', 'ast_b']]);
    shipped.forget();
    expect(Object.keys(shipped.split(job).job.assets)).toHaveLength(2);
  });

  it('renders as in process when the assets are already held, and when one was dropped', async () => {
    const previous = process.env.PLATEN_CACHE_PROCESS_ASSETS_MB;
    process.env.PLATEN_CACHE_PROCESS_ASSETS_MB = '0';
    try {
      pool = new RenderPool({ workers: 1 });
      await pool.warmup();
    } finally {
      if (previous === undefined) delete process.env.PLATEN_CACHE_PROCESS_ASSETS_MB;
      else process.env.PLATEN_CACHE_PROCESS_ASSETS_MB = previous;
    }
    const both = await photoJob(['ast_one', 'ast_two']);
    const first = await photoJob(['ast_one']);
    const expected = async (job: RenderJob) => Buffer.from((await renderInProcess(job))[0]?.bytes ?? []);
    // ast_one then ast_two is held (a zero budget keeps only the last): both, then ast_one again.
    for (const job of [both, first, both, first]) {
      const [file] = await pool.render(job);
      expect(Buffer.from(file?.bytes ?? []).equals(await expected(job))).toBe(true);
    }
  });
});
