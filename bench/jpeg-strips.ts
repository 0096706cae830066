/**
 * `node --import tsx bench/jpeg-strips.ts`: the JPEG strip encoders side by side, on the benchmark
 * photo scaled to a 1080×1080 page: every strip (a render without a base) and the strips a
 * headline change re-encodes. TurboJPEG through `@julusian/jpeg-turbo` (what `encodeJpeg` uses up to quality
 * 90) against the sharp pipeline used before (src/engine/backends/encode/jpeg-strips.ts), both at
 * quality 90, strips encoded in parallel as a render does; the encoders take turns, 5 rounds of 100.
 * Then each encoder's fidelity by quality (PSNR of the whole page). Prints both tables and writes
 * bench/results/jpeg-strips.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import turbo from '@julusian/jpeg-turbo';
import sharp from 'sharp';
import { encodeJpeg } from '../src/engine/backends/encode/jpeg-strips.ts';
import { STRIP_ROWS, stripsOf } from '../src/engine/backends/encode/strips.ts';
import { photoJpeg } from './designs.ts';

const SIDE = 1080;
const QUALITY = 90;
const page = await sharp(await photoJpeg(1600, 1200, 42))
  .resize(SIDE, SIDE, { fit: 'cover' })
  .ensureAlpha()
  .raw()
  .toBuffer();
const strips = stripsOf(SIDE).map(({ top, rows }) => ({
  rgba: page.subarray(top * SIDE * 4, (top + rows) * SIDE * 4),
  rows,
}));

/** The encoder strips had before: a sharp pipeline each, with the settings jpeg-strips.ts uses. */
const bySharp = (rgba: Uint8Array, rows: number, quality: number) =>
  sharp(rgba, { raw: { width: SIDE, height: rows, channels: 4 } })
    .removeAlpha()
    .jpeg({ quality, optimiseCoding: false, chromaSubsampling: '4:2:0' })
    .toBuffer();
/** TurboJPEG at any quality (encodeJpeg hands qualities above 90 to sharp). */
const byTurbo = (rgba: Uint8Array, rows: number, quality: number) =>
  turbo.compress(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
    format: turbo.FORMAT_RGBA,
    width: SIDE,
    height: rows,
    subsampling: turbo.SAMP_420,
    quality,
  });

type Encoder = (rgba: Uint8Array, rows: number) => Promise<Buffer>;
const encoders: Record<string, Encoder> = {
  'sharp (before)': (rgba, rows) => bySharp(rgba, rows, QUALITY),
  TurboJPEG: (rgba, rows) => encodeJpeg(rgba, SIDE, rows, { quality: QUALITY }),
};
/** The strips a headline change re-encodes in the benchmark post (rows 576-767). */
const headline = strips.slice(576 / STRIP_ROWS, 768 / STRIP_ROWS);
const cases = {
  [`every strip (${strips.length})`]: strips,
  [`headline (${headline.length} strips)`]: headline,
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const samples = new Map<string, { wallMs: number[]; cpuMs: number[] }>();
for (let round = 0; round < 5; round++)
  for (const [caseName, set] of Object.entries(cases))
    for (const [name, encode] of Object.entries(encoders)) {
      const run = () => Promise.all(set.map(({ rgba, rows }) => encode(rgba, rows)));
      for (let i = 0; i < 10; i++) await run();
      const [cpu, started, n] = [process.cpuUsage(), performance.now(), 100];
      for (let i = 0; i < n; i++) await run();
      const used = process.cpuUsage(cpu);
      const key = `${caseName}\u0000${name}`;
      if (!samples.has(key)) samples.set(key, { wallMs: [], cpuMs: [] });
      samples.get(key)?.wallMs.push((performance.now() - started) / n);
      samples.get(key)?.cpuMs.push((used.user + used.system) / 1000 / n);
    }

const rows = [...samples].map(([key, { wallMs, cpuMs }]) => {
  const [caseName, encoder] = key.split('\u0000');
  return {
    case: caseName,
    encoder,
    wallMs: Math.round(median(wallMs) * 100) / 100,
    cpuMs: Math.round(median(cpuMs) * 100) / 100,
  };
});
console.log(`JPEG strips of ${STRIP_ROWS} rows, ${SIDE}×${SIDE}, quality ${QUALITY}, medians of 5 rounds:`);
console.table(rows);

/**
 * Fidelity: PSNR (dB) of each encoder's whole page against the page, by quality. TurboJPEG's
 * binding always uses the fast integer DCT, which is why encodeJpeg takes it only up to 90.
 */
async function psnr(jpeg: Buffer): Promise<number> {
  const decoded = await sharp(jpeg).raw().toBuffer();
  let squared = 0;
  for (let i = 0, j = 0; i < decoded.length; i += 3, j += 4)
    for (let c = 0; c < 3; c++) squared += ((decoded[i + c] ?? 0) - (page[j + c] ?? 0)) ** 2;
  return 10 * Math.log10(255 ** 2 / (squared / (SIDE * SIDE * 3)));
}
const fidelity = [];
for (const quality of [75, 90, 95, 100]) {
  const [sharpFile, turboFile] = [await bySharp(page, SIDE, quality), await byTurbo(page, SIDE, quality)];
  const round2 = (n: number) => Math.round(n * 100) / 100;
  fidelity.push({
    quality,
    sharpPsnrDb: round2(await psnr(sharpFile)),
    turboPsnrDb: round2(await psnr(turboFile)),
    sharpBytes: sharpFile.length,
    turboBytes: turboFile.length,
  });
}
console.log('Whole page, PSNR against the page (dB) and size:');
console.table(fidelity);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/jpeg-strips.json',
  `${JSON.stringify({ date: new Date().toISOString(), rows, fidelity }, null, 2)}\n`,
);
