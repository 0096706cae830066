/** `platen render` end to end on real files: variables, formats, page selection, exit codes. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runRenderCommand } from './render-command.ts';

const promo = readFileSync(new URL('../design/fixtures/promo-card.json', import.meta.url), 'utf8');
let dir = '';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platen-cli-'));
  writeFileSync(join(dir, 'promo.json'), promo);
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('platen render', () => {
  it('renders the active page to PNG with variables applied', async () => {
    const out = join(dir, 'card.png');
    const code = await runRenderCommand([
      join(dir, 'promo.json'),
      '--var',
      'headline=Winter',
      '--out',
      out,
      '--scale',
      '2',
    ]);
    expect(code).toBe(0);
    const png = PNG.sync.read(readFileSync(out));
    expect([png.width, png.height]).toEqual([2160, 2160]);
  });

  it('writes one JPEG per page with --all-pages, and one PDF holding them all', async () => {
    expect(
      await runRenderCommand([
        join(dir, 'promo.json'),
        '--all-pages',
        '--format',
        'jpeg',
        '--out',
        join(dir, 'o.jpg'),
      ]),
    ).toBe(0);
    expect(readFileSync(join(dir, 'o-square.jpg')).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(readFileSync(join(dir, 'o-story.jpg')).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(
      await runRenderCommand([
        join(dir, 'promo.json'),
        '--all-pages',
        '--format',
        'pdf',
        '--out',
        join(dir, 'o.pdf'),
      ]),
    ).toBe(0);
    expect(readFileSync(join(dir, 'o.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('exits 2 on bad usage or an invalid document and 1 when the render fails', async () => {
    expect(await runRenderCommand([])).toBe(2);
    expect(await runRenderCommand([join(dir, 'promo.json'), '--format', 'bmp'])).toBe(2);
    writeFileSync(join(dir, 'bad.json'), '{"schemaVersion": 1, "pages": []}');
    expect(await runRenderCommand([join(dir, 'bad.json')])).toBe(2);
    expect(
      await runRenderCommand([join(dir, 'promo.json'), '--page', 'nope', '--out', join(dir, 'x.png')]),
    ).toBe(1);
  });
});
