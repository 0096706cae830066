/**
 * Fidelity of the studio canvas against the server's renderer: for each fixture document (text
 * with fallback fonts, rotation, a data: PNG image, a remote image, inline SVG, a QR code, a font
 * family the workspace uploaded in two weights, and each version 2 feature: rich text spans,
 * gradients on a fill, on text and on the page background, a shadow, a blur, flips, a cropped,
 * filtered, bordered image with rounded corners, a rotated nested group with a clip, barcodes)
 * the template is opened in
 * the embedded studio at 100% zoom with devicePixelRatio 1, the canvas pixels are read, the server
 * renders the same template to PNG, and pixelmatch (threshold 0.1) must find under 0.5% of the
 * pixels differing. The ratios are printed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pixelmatch from 'pixelmatch';
import type { Browser, Frame, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession, createEmbed, mint } from './harness/embeds.ts';
import {
  bearer,
  http,
  startOrigin,
  startTestServer,
  type TestServer,
  workspaceWithKey,
} from './harness/server.ts';
import {
  chromiumMissing,
  ensureStudioBuilt,
  type HostPage,
  launchChromium,
  openStudio,
  startHostPage,
} from './harness/studio.ts';

const require = createRequire(import.meta.url);

if (chromiumMissing) console.log(`studio fidelity test skipped: ${chromiumMissing}`);

const W = 400;
const H = 300;
const MAX_RATIO = 0.005;

function gradientPng(): Buffer {
  const png = new PNG({ width: 40, height: 30 });
  for (let y = 0; y < 30; y++)
    for (let x = 0; x < 40; x++) {
      const i = (y * 40 + x) * 4;
      png.data[i] = Math.round((x / 39) * 255);
      png.data[i + 1] = Math.round((y / 29) * 255);
      png.data[i + 2] = (x >> 3) % 2 === (y >> 3) % 2 ? 200 : 60;
      png.data[i + 3] = 255;
    }
  return PNG.sync.write(png);
}

const dataUri = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** What fixtures may refer to: where the loopback "internet" serves the remote image. */
interface FixtureContext {
  originBase: string;
}

const DEJAVU_SERIF = (name: string) =>
  readFileSync(join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', name));

function page(elements: object[]) {
  return {
    schemaVersion: 1,
    activePageId: 'p1',
    pages: [{ id: 'p1', name: 'Fixture', width: W, height: H, background: '#ffffff', elements }],
  };
}

/** A version 2 document (spans, gradients, effects, groups, barcodes). */
function page2(elements: object[], background: unknown = '#ffffff') {
  return {
    schemaVersion: 2,
    activePageId: 'p1',
    pages: [{ id: 'p1', name: 'Fixture', width: W, height: H, background, elements }],
  };
}

const FIXTURES: Record<string, (context: FixtureContext) => object> = {
  'text with fallback fonts (Latin, CJK, emoji)': () =>
    page([
      {
        id: 't1',
        type: 'text',
        x: 20,
        y: 20,
        width: 360,
        height: 120,
        text: 'Hello 你好世界 🎉',
        fontFamily: 'Inter',
        fontSize: 36,
        fontWeight: 700,
        color: '#1d1d35',
      },
      {
        id: 't2',
        type: 'text',
        x: 20,
        y: 150,
        width: 360,
        height: 120,
        text: 'Grüße, こんにちは ✨ 123',
        fontFamily: 'Roboto',
        fontSize: 28,
        color: '#0f766e',
        align: 'center',
      },
    ]),
  'rotated rect and text': () =>
    page([
      { id: 'r1', type: 'rect', x: 120, y: 70, width: 160, height: 160, fill: '#e0b872', rotation: 30 },
      {
        id: 't1',
        type: 'text',
        x: 60,
        y: 120,
        width: 280,
        height: 60,
        text: 'Rotated',
        fontFamily: 'Inter',
        fontSize: 40,
        color: '#1d1d35',
        rotation: -15,
        align: 'center',
      },
    ]),
  'image from a data: PNG': () =>
    page([
      {
        id: 'i1',
        type: 'image',
        x: 40,
        y: 30,
        width: 320,
        height: 240,
        src: dataUri(gradientPng()),
        fit: 'cover',
      },
    ]),
  'remote image (fetched through the service)': ({ originBase }) =>
    page([
      {
        id: 'i1',
        type: 'image',
        x: 30,
        y: 20,
        width: 340,
        height: 260,
        src: `${originBase}/gradient.png`,
        fit: 'contain',
        rotation: 8,
      },
    ]),
  "the workspace's uploaded font family, two weights": () =>
    page([
      {
        id: 't1',
        type: 'text',
        x: 20,
        y: 20,
        width: 360,
        height: 110,
        text: 'Brand Serif regular',
        fontFamily: 'Brand Serif',
        fontSize: 34,
        color: '#1d1d35',
      },
      {
        id: 't2',
        type: 'text',
        x: 20,
        y: 160,
        width: 360,
        height: 110,
        text: 'Brand Serif bold',
        fontFamily: 'Brand Serif',
        fontSize: 34,
        fontWeight: 700,
        color: '#0f766e',
      },
    ]),
  'inline SVG element': () =>
    page([
      {
        id: 's1',
        type: 'svg',
        x: 50,
        y: 25,
        width: 300,
        height: 250,
        svg: "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 120 100'><rect x='5' y='5' width='110' height='90' rx='12' fill='#5b8def'/><circle cx='60' cy='50' r='30' fill='#ffffff' stroke='#1d1d35' stroke-width='4'/><path d='M20 90 L60 20 L100 90 Z' fill='none' stroke='#e0b872' stroke-width='3'/></svg>",
      },
    ]),
  'QR code': () =>
    page([
      {
        id: 'q1',
        type: 'qr',
        x: 75,
        y: 25,
        width: 250,
        height: 250,
        value: 'https://platen.example.com/fidelity',
        color: '#1d1d35',
        background: '#ffffff',
      },
    ]),
  'rich text spans (bold, italic, colour, size, underline, link) that wrap': () =>
    page2([
      {
        id: 't1',
        type: 'text',
        x: 20,
        y: 20,
        width: 360,
        height: 260,
        fontFamily: 'Inter',
        fontSize: 28,
        color: '#1d1d35',
        spans: [
          { text: 'Save ' },
          { text: '20%', fontWeight: 700, color: '#e11d48', fontSize: 44 },
          { text: ' on ' },
          { text: 'everything', fontStyle: 'italic', underline: true },
          { text: ' this week, see ' },
          { text: 'our shop', color: '#2563eb', link: 'https://example.com/shop', underline: true },
          { text: ' for details.' },
        ],
      },
    ]),
  'gradients: a linear fill, a radial fill, gradient text and a gradient page background': () =>
    page2(
      [
        {
          id: 'r1',
          type: 'rect',
          x: 20,
          y: 20,
          width: 170,
          height: 120,
          cornerRadius: 16,
          fill: {
            type: 'linear',
            angle: 135,
            stops: [
              { offset: 0, color: '#f97316' },
              { offset: 0.5, color: '#ec4899' },
              { offset: 1, color: '#6366f1' },
            ],
          },
        },
        {
          id: 'e1',
          type: 'ellipse',
          x: 210,
          y: 20,
          width: 170,
          height: 120,
          fill: {
            type: 'radial',
            stops: [
              { offset: 0, color: '#fde047' },
              { offset: 1, color: '#15803d' },
            ],
          },
        },
        {
          id: 't1',
          type: 'text',
          x: 20,
          y: 160,
          width: 360,
          height: 120,
          text: 'Gradient text',
          fontFamily: 'Inter',
          fontSize: 54,
          fontWeight: 700,
          color: {
            type: 'linear',
            angle: 90,
            stops: [
              { offset: 0, color: '#0ea5e9' },
              { offset: 1, color: '#a21caf' },
            ],
          },
        },
      ],
      {
        type: 'linear',
        angle: 180,
        stops: [
          { offset: 0, color: '#fff7ed' },
          { offset: 1, color: '#dbeafe' },
        ],
      },
    ),
  'a shadow and a blur': () =>
    page2([
      {
        id: 'r1',
        type: 'rect',
        x: 40,
        y: 40,
        width: 150,
        height: 150,
        fill: '#4f7cff',
        cornerRadius: 12,
        rotation: 10,
        shadow: { color: '#00000080', blur: 14, offsetX: 10, offsetY: 12 },
      },
      {
        id: 'e1',
        type: 'ellipse',
        x: 230,
        y: 60,
        width: 130,
        height: 130,
        fill: '#e0b872',
        blur: 6,
      },
      {
        id: 't1',
        type: 'text',
        x: 30,
        y: 220,
        width: 340,
        height: 60,
        text: 'Soft shadow',
        fontFamily: 'Inter',
        fontSize: 36,
        fontWeight: 700,
        color: '#1d1d35',
        shadow: { color: '#0f766e99', blur: 4, offsetX: 3, offsetY: 3 },
      },
    ]),
  'flips on text, an image and a shape': () =>
    page2([
      {
        id: 't1',
        type: 'text',
        x: 20,
        y: 20,
        width: 360,
        height: 60,
        text: 'Mirrored',
        fontFamily: 'Inter',
        fontSize: 40,
        color: '#1d1d35',
        flipX: true,
      },
      {
        id: 'i1',
        type: 'image',
        x: 20,
        y: 100,
        width: 200,
        height: 150,
        src: dataUri(gradientPng()),
        fit: 'cover',
        flipY: true,
      },
      {
        id: 'r1',
        type: 'rect',
        x: 250,
        y: 110,
        width: 120,
        height: 140,
        rotation: 20,
        flipX: true,
        flipY: true,
        fill: {
          type: 'linear',
          angle: 90,
          stops: [
            { offset: 0, color: '#111827' },
            { offset: 1, color: '#f59e0b' },
          ],
        },
      },
    ]),
  'a cropped, filtered image with rounded corners and a border': () =>
    page2([
      {
        id: 'i1',
        type: 'image',
        x: 40,
        y: 30,
        width: 320,
        height: 240,
        src: dataUri(gradientPng()),
        fit: 'cover',
        cornerRadius: 28,
        crop: { x: 0.2, y: 0.1, width: 0.6, height: 0.7 },
        filters: { brightness: 1.15, contrast: 1.2, saturation: 0.6, sepia: 0.3 },
        stroke: '#1d1d35',
        strokeWidth: 8,
      },
    ]),
  'a rotated group with a clip, holding a nested group': () =>
    page2([
      {
        id: 'g1',
        type: 'group',
        x: 60,
        y: 40,
        width: 280,
        height: 220,
        rotation: 12,
        clip: true,
        opacity: 0.9,
        elements: [
          { id: 'bg', type: 'rect', x: 0, y: 0, width: 280, height: 220, fill: '#f4efe6' },
          { id: 'big', type: 'ellipse', x: 180, y: -60, width: 200, height: 200, fill: '#4f7cff' },
          {
            id: 'g2',
            type: 'group',
            x: 20,
            y: 110,
            width: 200,
            height: 90,
            rotation: -20,
            elements: [
              {
                id: 'pill',
                type: 'rect',
                x: 0,
                y: 0,
                width: 200,
                height: 90,
                cornerRadius: 45,
                fill: '#1d1d35',
              },
              {
                id: 'label',
                type: 'text',
                x: 0,
                y: 22,
                width: 200,
                height: 50,
                text: 'Nested',
                fontFamily: 'Inter',
                fontSize: 36,
                fontWeight: 700,
                color: '#ffffff',
                align: 'center',
              },
            ],
          },
        ],
      },
    ]),
  'barcodes: Code 128 with text and an EAN-13': () =>
    page2([
      {
        id: 'b1',
        type: 'barcode',
        x: 20,
        y: 20,
        width: 360,
        height: 120,
        format: 'code128',
        value: 'PLATEN-0001',
        color: '#1d1d35',
        background: '#ffffff',
        showText: true,
      },
      {
        id: 'b2',
        type: 'barcode',
        x: 60,
        y: 160,
        width: 280,
        height: 120,
        format: 'ean13',
        value: '4006381333931',
        color: '#000000',
        background: '#fefce8',
      },
    ]),
};

describe.skipIf(chromiumMissing !== null)('studio canvas vs server PNG (Chromium, pixelmatch)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let tab: Page;
  let key: string;
  let embedId: string;
  let token: string;
  let origin: { close(): Promise<void> } | undefined;
  const context: FixtureContext = { originBase: '' };

  beforeAll(async () => {
    // The remote image's host: loopback stands in for the internet (PLATEN_ALLOW_PRIVATE_URLS).
    const gradient = gradientPng();
    const started = await startOrigin((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(gradient);
    });
    origin = started;
    context.originBase = started.base;
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    tab = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    const ws = await workspaceWithKey(server.base, { credits: 1000 });
    key = ws.key;
    embedId = (await createEmbed(server.base, ws.workspaceId)).id;
    token = await mint(server.base, embedId, 'fidelity-user');
    for (const file of ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf']) {
      const upload = await http(server.base, 'POST', '/v1/assets?family=Brand%20Serif', {
        raw: DEJAVU_SERIF(file),
        headers: { ...bearer(key), 'content-type': 'font/ttf' },
      });
      expect(upload.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await origin?.close();
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  /**
   * The canvas backing store as PNG bytes, once the studio says the drawing has settled (fonts and
   * images loaded: `aria-busy="false"`) and two reads in a row agree.
   */
  async function canvasPng(frame: Frame): Promise<PNG> {
    await frame.locator('canvas[role="img"][aria-busy="false"]').waitFor({ timeout: 30_000 });
    const read = () =>
      frame.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('canvas[role="img"]');
        return canvas ? canvas.toDataURL('image/png') : '';
      });
    let previous = '';
    for (let i = 0; i < 20; i++) {
      await frame.page().waitForTimeout(400);
      const current = await read();
      if (current && current === previous) break;
      previous = current;
    }
    return PNG.sync.read(Buffer.from(previous.split(',')[1] ?? '', 'base64'));
  }

  async function serverPng(templateId: string): Promise<PNG> {
    let res = await http(server.base, 'POST', `/v1/templates/${templateId}/render`, {
      body: { format: 'png' },
      headers: bearer(key),
    });
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`render: ${res.status} ${res.bytes.toString().slice(0, 300)}`);
    if (res.headers.get('content-type')?.startsWith('image/png')) return PNG.sync.read(res.bytes);
    const url = String(res.json.url);
    res = await http(server.base, 'GET', url.replace(/^https?:\/\/[^/]+/, ''), { headers: bearer(key) });
    if (res.status !== 200) throw new Error(`file: ${res.status} ${res.bytes.toString().slice(0, 300)}`);
    return PNG.sync.read(res.bytes);
  }

  const ratios: Record<string, number> = {};

  for (const [name, fixture] of Object.entries(FIXTURES)) {
    it(`${name}: canvas and server PNG differ in under 0.5% of pixels`, async () => {
      const created = await asSession(server.base, token)('POST', `/v1/embed/${embedId}/templates`, {
        body: { name, document: fixture(context) },
      });
      expect(created.status, created.bytes.toString()).toBe(201);
      const templateId = String(created.json.id);

      const { frame } = await openStudio(tab, host, { embedId, token, templateId });
      await frame.getByRole('img', { name: /^Page / }).waitFor();
      const zoom = frame.getByRole('button', { name: /^Zoom \d+%, set to 100%$/ });
      await zoom.click();
      await expect.poll(() => zoom.getAttribute('aria-label')).toBe('Zoom 100%, set to 100%');
      const studio = await canvasPng(frame);
      const rendered = await serverPng(templateId);

      expect([studio.width, studio.height]).toEqual([W, H]);
      expect([rendered.width, rendered.height]).toEqual([W, H]);
      const diff = new PNG({ width: W, height: H });
      const differing = pixelmatch(studio.data, rendered.data, diff.data, W, H, { threshold: 0.1 });
      const ratio = differing / (W * H);
      ratios[name] = ratio;
      console.info(`[fidelity] ${name}: ${(ratio * 100).toFixed(3)}% of pixels differ (${differing})`);
      if (process.env.PLATEN_FIDELITY_DIFFS === '1') {
        // Beside the golden harness's sheets, inside the repository (test/.tmp is ignored).
        const { writeFileSync, mkdirSync } = await import('node:fs');
        const out = join(dirname(new URL(import.meta.url).pathname), '.tmp', 'fidelity');
        mkdirSync(out, { recursive: true });
        const slug = name.replace(/\W+/g, '-');
        writeFileSync(join(out, `${slug}-studio.png`), PNG.sync.write(studio));
        writeFileSync(join(out, `${slug}-server.png`), PNG.sync.write(rendered));
        writeFileSync(join(out, `${slug}-diff.png`), PNG.sync.write(diff));
      }
      expect(ratio).toBeLessThan(MAX_RATIO);
    }, 60_000);
  }

  afterAll(() => console.info('[fidelity] ratios', ratios));
});
