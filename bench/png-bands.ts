/**
 * `node --import tsx bench/png-bands.ts`: how PNG bands are coded (src/engine/backends/encode/
 * png-bands.ts), measured on every band of the goldens (test/goldens, flat designs mostly) and of
 * the benchmark post (a photograph under a card). Each band is Sub-filtered and deflated at zlib
 * level 1 with run-length matching, with Huffman coding alone, and with the strategy
 * `strategyFor` picks from the band's sampled share of bytes inside runs, each with the engine's
 * other settings (`BAND_DEFLATE`); sizes and median times are
 * summed per set. Then the Sub filter word by word against byte by byte. Prints both tables and
 * writes bench/results/png-bands.json.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { parseDesignDocument } from '../src/design/index.ts';
import {
  BAND_DEFLATE,
  strategyFor,
  subFilter,
  subFilterBytes,
} from '../src/engine/backends/encode/png-bands.ts';
import { STRIP_ROWS, stripsOf } from '../src/engine/backends/encode/strips.ts';
import { renderInProcess } from '../src/engine/in-process.ts';
import { benchDocument, photoJpeg } from './designs.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const timed = (run: () => void, times = 5): number => {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
};

async function benchPost(): Promise<Buffer> {
  const parsed = parseDesignDocument(benchDocument('asset:photo'));
  if (!parsed.ok) throw new Error('bench design is invalid');
  const assets = { photo: { bytes: new Uint8Array(await photoJpeg()), mimeType: 'image/jpeg' } };
  const [file] = await renderInProcess({
    document: parsed.document,
    pageIds: [parsed.document.pages[0]?.id ?? ''],
    format: 'png',
    workspaceId: 'ws_bench',
    assets,
    fonts: [],
  });
  return Buffer.from(file?.bytes ?? []);
}

const goldens = readdirSync('test/goldens')
  .filter((name) => name.endsWith('.png'))
  .map((name) => readFileSync(join('test/goldens', name)));
const sets = { 'goldens (41 pages)': goldens, 'benchmark post': [await benchPost()] };
const strategies = { 'run-length': constants.Z_RLE, 'Huffman only': constants.Z_HUFFMAN_ONLY };

const coding: Record<string, Record<string, string>> = {};
const results: Record<string, unknown> = {};
for (const [setName, pngs] of Object.entries(sets)) {
  const sum = { 'run-length': [0, 0], 'Huffman only': [0, 0], chosen: [0, 0] } as Record<
    string,
    [number, number]
  >;
  let bands = 0;
  let photographic = 0;
  for (const png of pngs) {
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    for (const { top, rows } of stripsOf(info.height)) {
      const rgba = data.subarray(top * info.width * 4, (top + rows) * info.width * 4);
      const filtered = subFilter(rgba, info.width, rows, true);
      const chosen = strategyFor(filtered);
      bands++;
      if (chosen === constants.Z_HUFFMAN_ONLY) photographic++;
      for (const [name, strategy] of Object.entries(strategies)) {
        let size = 0;
        const ms = timed(() => {
          size = deflateRawSync(filtered, { ...BAND_DEFLATE, strategy }).length;
        });
        const entry = sum[name] as [number, number];
        entry[0] += size;
        entry[1] += ms;
        if (strategy === chosen) {
          (sum.chosen as [number, number])[0] += size;
          (sum.chosen as [number, number])[1] += ms;
        }
      }
    }
  }
  coding[setName] = Object.fromEntries(
    Object.entries(sum).map(([name, [bytes, ms]]) => [
      name,
      `${(bytes / 1e6).toFixed(2)} MB, ${ms.toFixed(0)} ms`,
    ]),
  );
  coding[setName].bands = `${bands} of ${STRIP_ROWS} rows, ${photographic} Huffman-coded`;
  results[setName] = { bands, photographic, sums: sum };
}
console.log('Deflating every band at level 1 (sizes and median times summed):');
console.table(coding);

const width = 1080;
const page = await sharp(await benchPost())
  .ensureAlpha()
  .raw()
  .toBuffer();
const rgba = page.subarray(0, width * STRIP_ROWS * 4);
const filters: Record<string, Record<string, number>> = {};
for (const opaque of [true, false]) {
  const label = opaque ? 'RGB' : 'RGBA';
  filters[label] = {
    'word by word ms': Number(timed(() => subFilter(rgba, width, STRIP_ROWS, opaque), 41).toFixed(3)),
    'byte by byte ms': Number(timed(() => subFilterBytes(rgba, width, STRIP_ROWS, opaque), 41).toFixed(3)),
  };
}
console.log(`The Sub filter on one band (${width}×${STRIP_ROWS}), medians of 41:`);
console.table(filters);

mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/png-bands.json',
  `${JSON.stringify({ date: new Date().toISOString(), coding: results, filters }, null, 2)}\n`,
);
