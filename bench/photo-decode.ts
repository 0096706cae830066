/**
 * `node --import tsx bench/photo-decode.ts [--quick]`: what it costs to decode a photo never seen
 * before, the part of a new-photo render that no cache can help (docs/performance.md, "A new
 * photo's floor"). New 1600×1200 JPEGs (designs.ts photoJpeg, a new seed each), decoded:
 * - by Skia, as Platen draws them (`Image` src, then `decode()`, on @napi-rs/canvas's threads);
 * - by TurboJPEG (`@julusian/jpeg-turbo`, libjpeg-turbo with its SIMD code, fast integer DCT);
 * - by TurboJPEG handed to Skia as an uncompressed BMP (the path tried and not kept);
 * - by libvips (sharp, raw pixels).
 * Each way takes turns with the others, a new photo each time; the median wall time and the
 * process's CPU time (every thread) per photo. Prints a table and writes
 * bench/results/photo-decode.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import turbo from '@julusian/jpeg-turbo';
import { Image } from '@napi-rs/canvas';
import sharp from 'sharp';
import { photoJpeg } from './designs.ts';

const quick = process.argv.includes('--quick');
const rounds = quick ? 4 : 30;
const [WIDTH, HEIGHT] = [1600, 1200];

async function skia(bytes: Buffer): Promise<void> {
  const image = new Image();
  image.src = bytes;
  await image.decode();
}

const BMP_HEADER = 54;
/** A top-down 32-bit BI_RGB BMP (BITMAPINFOHEADER) with room for the pixels after its header. */
function bmp(width: number, height: number): Buffer {
  const file = Buffer.alloc(BMP_HEADER + width * height * 4);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(BMP_HEADER, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(width, 18);
  file.writeInt32LE(-height, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(32, 28);
  return file;
}

const ways: Record<string, (bytes: Buffer) => Promise<unknown>> = {
  'Skia (as Platen draws)': skia,
  TurboJPEG: (bytes) => turbo.decompress(bytes, { format: turbo.FORMAT_BGRX }),
  'TurboJPEG, then Skia takes a BMP': async (bytes) => {
    const file = bmp(WIDTH, HEIGHT);
    await turbo.decompress(bytes, file.subarray(BMP_HEADER), { format: turbo.FORMAT_BGRX });
    await skia(file);
  },
  'libvips (sharp), raw': (bytes) => sharp(bytes).raw().toBuffer(),
};

const names = Object.keys(ways);
const photos: Buffer[] = [];
for (let i = 0; i < (rounds + 1) * names.length; i++) photos.push(await photoJpeg(WIDTH, HEIGHT, 500 + i));
const samples = new Map(names.map((name) => [name, { wallMs: [] as number[], cpuMs: [] as number[] }]));
let next = 0;
for (let round = 0; round <= rounds; round++) {
  // The first round warms each way up and is not counted; the order rotates every round.
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length] as string;
    const bytes = photos[next++] as Buffer;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await (ways[name] as (bytes: Buffer) => Promise<unknown>)(bytes);
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (round === 0) continue;
    samples.get(name)?.wallMs.push(wallMs);
    samples.get(name)?.cpuMs.push((used.user + used.system) / 1000);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const rows = names.map((name) => {
  const { wallMs, cpuMs } = samples.get(name) ?? { wallMs: [], cpuMs: [] };
  return { way: name, wallMs: Number(median(wallMs).toFixed(2)), cpuMs: Number(median(cpuMs).toFixed(2)) };
});
console.log(`A new ${WIDTH}×${HEIGHT} JPEG decoded, medians of ${rounds}:`);
console.table(rows);
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/photo-decode.json',
  `${JSON.stringify({ date: new Date().toISOString(), width: WIDTH, height: HEIGHT, rounds, rows }, null, 2)}\n`,
);
