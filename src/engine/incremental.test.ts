/**
 * Incremental rendering, as a property: for random documents and random modifications, a render
 * that reuses the previous render's strips (a base) gives exactly the bytes of a whole-page render
 * of the same request (JPEG: the same strips encoded afresh; PNG: the same file, so the same
 * pixels), while encoding only some strips when the change is small. Rotation, strokes, dashes,
 * overlaps, auto-fit and wrapping text, images and SVG are all drawn from the generator, and the
 * version 2 features: gradients, shadows, blurs, flips, nested groups (clipped or not), image
 * crop, filters and borders.
 */

import { createCanvas } from '@napi-rs/canvas';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { applyModifications, type DesignDocument, parseDesignDocument } from '../design/index.ts';
import { fontCatalogFor } from './backends/fonts.ts';
import { footprintOf } from './backends/op-bounds.ts';
import { preparePage } from './backends/prepare.ts';
import { drawPageOnto } from './backends/raster.ts';
import { encodeStriped } from './backends/striped.ts';
import type { DrawOp, GroupOp } from './layout/types.ts';

function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}
type Rng = ReturnType<typeof prng>;

const W = 360;
const H = 1400;
const COLORS = ['#1d1d35', '#e0b872', '#5b8def', '#0f766ecc', '#ffffff', 'rgba(200,40,40,0.6)'];
const WORDS = [
  'Sale',
  'Winter',
  'collection',
  'is',
  'here',
  'free',
  'shipping',
  'Grüße',
  '你好',
  '🎉',
  'on',
  'every',
  'order',
];

function tinyPng(rng: Rng, width: number, height: number): string {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i++) png.data[i] = i % 4 === 3 ? 255 : rng.int(0, 255);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

const sentence = (rng: Rng) => Array.from({ length: rng.int(1, 9) }, () => rng.pick(WORDS)).join(' ');

function gradient(rng: Rng): Record<string, unknown> {
  const stops = [
    { offset: 0, color: rng.pick(COLORS) },
    { offset: rng.next(), color: rng.pick(COLORS) },
    { offset: 1, color: rng.pick(COLORS) },
  ];
  return rng.chance(0.5) ? { type: 'linear', angle: rng.int(-360, 360), stops } : { type: 'radial', stops };
}

const fill = (rng: Rng) => (rng.chance(0.3) ? gradient(rng) : rng.pick(COLORS));

/** Version 2 effects on any element, each now and then. */
function effects(rng: Rng): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (rng.chance(0.2))
    out.shadow = {
      color: rng.pick(COLORS),
      blur: rng.pick([0, 4, 20, 60]),
      offsetX: rng.int(-40, 40),
      offsetY: rng.pick([-120, -10, 0, 15, 90]),
    };
  if (rng.chance(0.1)) out.blur = rng.pick([1, 6, 30]);
  if (rng.chance(0.15)) out.flipX = true;
  if (rng.chance(0.15)) out.flipY = true;
  return out;
}

function element(rng: Rng, index: number | string, images: string[], depth = 0): Record<string, unknown> {
  const box = {
    id: `e${index}`,
    name: `v${index}`,
    x: rng.int(-40, W - 40),
    y: rng.int(-40, H - 40),
    width: rng.int(20, 300),
    height: rng.int(10, 420),
    rotation: rng.chance(0.4) ? rng.int(-180, 180) : 0,
    opacity: rng.chance(0.2) ? 0.5 : 1,
    ...effects(rng),
  };
  const types = [
    'text',
    'text',
    'rect',
    'ellipse',
    'line',
    'image',
    'svg',
    'qr',
    'barcode',
    'group',
  ] as const;
  switch (rng.pick(depth < 2 ? types : types.slice(0, -1))) {
    case 'group':
      return {
        ...box,
        type: 'group',
        clip: rng.chance(0.5),
        elements: Array.from({ length: rng.int(1, 3) }, (_, i) =>
          element(rng, `${index}_${i}`, images, depth + 1),
        ),
      };
    case 'barcode':
      return {
        ...box,
        type: 'barcode',
        format: rng.pick(['code128', 'ean13', 'datamatrix', 'pdf417']),
        value: rng.pick(['5901234123457', '400638133393']),
        color: rng.pick(COLORS),
        showText: rng.chance(0.5),
      };
    case 'text':
      return {
        ...box,
        type: 'text',
        ...(rng.chance(0.4)
          ? {
              spans: Array.from({ length: rng.int(1, 4) }, () => ({
                text: `${sentence(rng)} `,
                ...(rng.chance(0.5) ? { fontWeight: 700 } : {}),
                ...(rng.chance(0.3) ? { fontSize: rng.int(8, 70) } : {}),
                ...(rng.chance(0.3) ? { color: rng.pick(COLORS) } : {}),
                ...(rng.chance(0.2) ? { underline: true } : {}),
                ...(rng.chance(0.2) ? { background: rng.pick(COLORS) } : {}),
                ...(rng.chance(0.1) ? { link: 'https://platen.dev' } : {}),
              })).concat(rng.chance(0.5) ? [{ text: '{{word}}' }] : []),
            }
          : { text: `${sentence(rng)}${rng.chance(0.5) ? ' {{word}}' : ''}` }),
        fontFamily: rng.pick(['Inter', 'Roboto', 'Playfair Display']),
        fontSize: rng.int(10, 60),
        fontWeight: rng.pick([400, 700]),
        color: rng.pick(COLORS),
        align: rng.pick(['left', 'center', 'right', 'justify']),
        verticalAlign: rng.pick(['top', 'middle', 'bottom']),
        autoFit: rng.pick(['none', 'shrink']),
        letterSpacing: rng.chance(0.3) ? rng.int(-2, 8) : 0,
        ...(rng.chance(0.2) ? { stroke: { color: rng.pick(COLORS), width: rng.int(1, 12) } } : {}),
        ...(rng.chance(0.2) ? { highlight: { color: rng.pick(COLORS), padding: rng.int(0, 20) } } : {}),
      };
    case 'rect':
      return {
        ...box,
        type: 'rect',
        fill: fill(rng),
        stroke: rng.chance(0.5) ? rng.pick(COLORS) : null,
        strokeWidth: rng.int(0, 14),
        cornerRadius: rng.int(0, 30),
      };
    case 'ellipse':
      return {
        ...box,
        type: 'ellipse',
        fill: fill(rng),
        stroke: rng.pick(COLORS),
        strokeWidth: rng.int(0, 10),
      };
    case 'line':
      return {
        ...box,
        type: 'line',
        stroke: rng.pick(COLORS),
        strokeWidth: rng.int(1, 16),
        dash: rng.chance(0.5) ? [rng.int(2, 12), rng.int(2, 8)] : [],
      };
    case 'image':
      return {
        ...box,
        type: 'image',
        src: rng.pick(images),
        fit: rng.pick(['cover', 'contain', 'fill']),
        cornerRadius: rng.int(0, 20),
        ...(rng.chance(0.3) ? { crop: { x: 0.1, y: rng.pick([0, 0.3]), width: 0.5, height: 0.6 } } : {}),
        ...(rng.chance(0.3)
          ? { filters: { grayscale: rng.pick([0, 1]), brightness: 1.2, blur: rng.pick([0, 3, 12]) } }
          : {}),
        ...(rng.chance(0.3) ? { stroke: rng.pick(COLORS), strokeWidth: rng.int(1, 12) } : {}),
      };
    case 'svg':
      return {
        ...box,
        type: 'svg',
        svg: `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 60'><rect x='4' y='4' width='92' height='52' rx='9' fill='${rng.pick(['#5b8def', '#e0b872'])}' stroke='#1d1d35' stroke-width='${rng.int(1, 6)}'/><circle cx='50' cy='30' r='${rng.int(5, 25)}' fill='#ffffff'/></svg>`,
      };
    default:
      return { ...box, type: 'qr', value: sentence(rng), color: '#1d1d35', background: '#ffffff' };
  }
}

/** Elements and their groups' children, nested ones included. */
function flatten(elements: Record<string, unknown>[]): Record<string, unknown>[] {
  return elements.flatMap((el) => [
    el,
    ...flatten((el.elements as Record<string, unknown>[] | undefined) ?? []),
  ]);
}

function randomCase(seed: number): { document: DesignDocument; modifications: Record<string, string> } {
  const rng = prng(seed);
  const images = [tinyPng(rng, 12, 9), tinyPng(rng, 5, 21)];
  const count = rng.int(2, 12);
  const elements = Array.from({ length: count }, (_, i) => element(rng, i, images));
  const raw = {
    schemaVersion: 2,
    activePageId: 'p',
    variables: { word: 'default' },
    pages: [
      {
        id: 'p',
        width: W,
        height: H,
        background: rng.chance(0.2) ? gradient(rng) : rng.pick(['#f4efe6', '#ffffff', '#102030']),
        elements,
      },
    ],
  };
  const parsed = parseDesignDocument(raw);
  if (!parsed.ok) throw new Error(`generator made an invalid document: ${JSON.stringify(parsed.issues)}`);
  const modifications: Record<string, string> = {};
  if (rng.chance(0.5)) modifications.word = sentence(rng);
  for (const el of flatten(elements)) {
    if (!rng.chance(0.35)) continue;
    const type = el.type as string;
    if (type === 'group' || rng.chance(0.1)) {
      modifications[`${el.name as string}.visible`] = rng.pick(['true', 'false']);
      continue;
    }
    if (type === 'barcode') {
      modifications[el.name as string] = rng.pick(['5901234123457', '0012345678905']);
      continue;
    }
    modifications[el.name as string] =
      type === 'text' || type === 'qr'
        ? sentence(rng)
        : type === 'image'
          ? (rng.pick(images) as string)
          : rng.pick(COLORS);
  }
  return { document: parsed.document, modifications };
}

async function render(document: DesignDocument, format: 'png' | 'jpeg', scale: number, baseKey?: string) {
  const page = document.pages[0];
  if (!page) throw new Error('no page');
  const prepared = await preparePage(
    page,
    fontCatalogFor('ws_test', []),
    { assets: {}, allowPrivateUrls: false },
    scale,
  );
  const canvas = createCanvas(Math.round(page.width * scale), Math.round(page.height * scale));
  drawPageOnto(canvas, prepared, page.id, scale, format === 'jpeg');
  let leading: Buffer | undefined;
  const result = await encodeStriped(canvas, prepared, {
    format,
    scale,
    quality: 85,
    opaque: format === 'jpeg' || prepared.opaque,
    ...(baseKey ? { baseKey } : {}),
    onLeadingBytes: (bytes) => {
      leading = bytes;
    },
  });
  // The bytes told early are what the file starts with (a render process has written them).
  if (leading) expect(result.bytes.subarray(0, leading.length).equals(leading)).toBe(true);
  return { ...result, leading };
}

describe('dirty rows of draw ops (op-bounds)', () => {
  const rect = (y: number): DrawOp => ({
    op: 'path',
    d: `M0 ${y}h10v10h-10Z`,
    fill: { paint: '#000', alpha: 1, rule: 'nonzero' },
  });
  const rows = (op: DrawOp, scale = 1) => footprintOf(op, scale, new Map()).rows;

  it('a link draws nothing; a text outline, a shadow and a blur widen the rows', () => {
    expect(rows({ op: 'link', x: 0, y: 100, width: 50, height: 20, url: 'https://example.com' })).toEqual([
      0, -1,
    ]);
    const run: DrawOp = {
      op: 'text',
      font: '20px Inter',
      color: '#000',
      x: 0,
      y: 100,
      text: 'Hi',
      direction: 'ltr',
      letterSpacing: 0,
      wordSpacing: 0,
    };
    const [top, bottom] = rows(run);
    const [strokedTop, strokedBottom] = rows({ ...run, stroke: { color: '#f00', width: 8 } } as DrawOp);
    expect([strokedTop <= top - 8, strokedBottom >= bottom + 8]).toEqual([true, true]);
    const group = (effects: GroupOp['effects'], transform?: GroupOp['transform']): DrawOp => ({
      op: 'group',
      opacity: 1,
      children: [rect(100)],
      ...(effects ? { effects } : {}),
      ...(transform ? { transform } : {}),
    });
    expect(rows(group(undefined))).toEqual([97, 113]);
    // A shadow 50 down with blur 10 (σ 5, reach 15) reaches rows 135..175 beyond the content.
    expect(rows(group({ shadow: { color: '#000', blur: 10, offsetX: 0, offsetY: 50 } }))).toEqual([97, 178]);
    expect(rows(group({ blur: 4 }), 2)).toEqual([2 * 88 - 3, 2 * 122 + 3]);
    // Flipped vertically about y 105 (the content's centre): the same rows.
    expect(rows(group(undefined, [1, 0, 0, -1, 0, 210]))).toEqual([97, 113]);
  });
});

describe('incremental renders equal whole-page renders (property, random documents)', () => {
  it('reads a tall page back in batches and still splices exactly', async () => {
    const raw = {
      schemaVersion: 1,
      activePageId: 'p',
      pages: [
        {
          id: 'p',
          width: 300,
          height: 5000,
          background: '#fafafa',
          elements: [
            {
              id: 'r',
              name: 'band',
              type: 'rect',
              x: 0,
              y: 0,
              width: 300,
              height: 5000,
              fill: '#203040',
              rotation: 3,
            },
            {
              id: 't',
              name: 'foot',
              type: 'text',
              x: 10,
              y: 4800,
              width: 280,
              height: 150,
              fontSize: 30,
              text: 'bottom',
            },
          ],
        },
      ],
    };
    const parsed = parseDesignDocument(raw);
    if (!parsed.ok) throw new Error('invalid');
    for (const modifications of [{ foot: 'changed at the bottom' }, { band: '#ff8800' }] as Record<
      string,
      string
    >[]) {
      const modified = applyModifications(parsed.document, modifications);
      if (!modified.ok) throw new Error('refused');
      for (const format of ['png', 'jpeg'] as const) {
        const key = `tall-${format}-${Object.keys(modifications)[0]}`;
        await render(parsed.document, format, 1, key);
        const spliced = await render(modified.document, format, 1, key);
        const whole = await render(modified.document, format, 1);
        expect([format, spliced.totalStrips > 32, spliced.bytes.equals(whole.bytes)]).toEqual([
          format,
          true,
          true,
        ]);
      }
    }
  });

  it('clears the rows a shrinking text no longer covers', async () => {
    const raw = {
      schemaVersion: 1,
      activePageId: 'p',
      pages: [
        {
          id: 'p',
          width: W,
          height: H,
          background: '#ffffff',
          elements: [
            {
              id: 't',
              name: 'body',
              type: 'text',
              x: 10,
              y: 10,
              width: 340,
              height: 1300,
              fontSize: 40,
              text: 'many words '.repeat(60),
            },
          ],
        },
      ],
    };
    const parsed = parseDesignDocument(raw);
    if (!parsed.ok) throw new Error('invalid');
    const short = applyModifications(parsed.document, { body: 'short' });
    if (!short.ok) throw new Error('refused');
    for (const format of ['png', 'jpeg'] as const) {
      await render(parsed.document, format, 1, `shrink-${format}`);
      const spliced = await render(short.document, format, 1, `shrink-${format}`);
      const whole = await render(short.document, format, 1);
      expect([format, spliced.bytes.equals(whole.bytes)]).toEqual([format, true]);
    }
  });

  it("keeps a base per image set: a new photo neither replaces the template photo's base nor loses the strips around it", async () => {
    const rng = prng(7);
    const photoA = tinyPng(rng, 40, 30);
    const photoB = tinyPng(rng, 40, 30);
    const photoC = tinyPng(rng, 40, 30);
    const doc = (photo: string, headline: string) => {
      const parsed = parseDesignDocument({
        schemaVersion: 1,
        activePageId: 'p',
        pages: [
          {
            id: 'p',
            width: W,
            height: H,
            background: '#ffffff',
            elements: [
              {
                id: 'i',
                name: 'photo',
                type: 'image',
                x: 0,
                y: 0,
                width: 360,
                height: 270,
                src: photo,
                fit: 'cover',
              },
              { id: 't', type: 'text', x: 10, y: 1172, width: 340, height: 30, fontSize: 20, text: headline },
            ],
          },
        ],
      });
      if (!parsed.ok) throw new Error('invalid');
      return parsed.document;
    };
    for (const format of ['png', 'jpeg'] as const) {
      const key = `sets-${format}`;
      await render(doc(photoA, 'first'), format, 1, key);
      // A new photo: the latest base (photo A) still serves the strips the photo does not touch.
      const newPhoto = await render(doc(photoB, 'first'), format, 1, key);
      expect(newPhoto.encodedStrips).toBeLessThan(newPhoto.totalStrips);
      // The template's own photo again with a new headline: its own base, so only the headline's
      // strip (rows 1152-1215 hold the text).
      const headline = await render(doc(photoA, 'second'), format, 1, key);
      expect([format, headline.encodedStrips]).toEqual([format, 1]);
      const whole = await render(doc(photoA, 'second'), format, 1);
      expect(headline.bytes.equals(whole.bytes)).toBe(true);
      // A third photo after the headline: the latest base is photo A's, spliced exactly.
      const third = await render(doc(photoC, 'second'), format, 1, key);
      expect(third.bytes.equals((await render(doc(photoC, 'second'), format, 1)).bytes)).toBe(true);
    }
  });

  const CASES = 40;
  for (const format of ['png', 'jpeg'] as const) {
    it(`${format}: ${CASES} random documents × random modifications`, async () => {
      let encoded = 0;
      let total = 0;
      let leadingBytes = 0;
      for (let seed = 1; seed <= CASES; seed++) {
        const { document, modifications } = randomCase(seed * 7919 + (format === 'png' ? 1 : 2));
        const modified = applyModifications(document, modifications);
        if (!modified.ok) throw new Error('modifications refused');
        const scale = seed % 3 === 0 ? 1.5 : 1;
        const key = `case-${format}-${seed}`;
        await render(document, format, scale, key);
        const spliced = await render(modified.document, format, scale, key);
        const whole = await render(modified.document, format, scale);
        expect([seed, spliced.bytes.equals(whole.bytes)]).toEqual([seed, true]);
        expect(whole.leading).toBeUndefined();
        if (spliced.encodedStrips > 0 && spliced.leading) leadingBytes += spliced.leading.length;
        // Rendering the same request again encodes nothing.
        const again = await render(modified.document, format, scale, key);
        expect([seed, again.encodedStrips, again.bytes.equals(whole.bytes)]).toEqual([seed, 0, true]);
        encoded += spliced.encodedStrips;
        total += spliced.totalStrips;
      }
      // Small random changes re-encode only part of the page, on the whole, and some leave strips
      // above the first change whose bytes are known before encoding.
      expect(encoded).toBeLessThan(total);
      expect(leadingBytes).toBeGreaterThan(0);
      console.info(`[incremental ${format}] re-encoded ${encoded} of ${total} strips`);
    }, 120_000);
  }
});
