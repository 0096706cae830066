/**
 * Hostile documents: every one is refused or bounded, fails with a RenderError (RENDER_FAILED)
 * whose details say where and why, and none hangs the process.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DesignDocument, parseDesignDocument } from '../design/index.ts';
import { RenderError } from './errors.ts';
import { documentOf, jobFor, pageDocument, testPhoto } from './goldens/harness.ts';
import { type RenderOptions, renderInProcess } from './render.ts';
import type { RenderJob } from './types.ts';

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/redirect-to-loopback') {
      res.writeHead(302, { location: `http://127.0.0.3:${port}/photo` }).end();
      return;
    }
    if (req.url === '/bomb') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 25; i++) res.write(chunk);
      res.end();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failure(job: RenderJob, options?: RenderOptions): Promise<RenderError> {
  const error = await renderInProcess(job, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RenderError);
  expect((error as RenderError).code).toBe('RENDER_FAILED');
  return error as RenderError;
}

const svgDoc = (svg: string): DesignDocument =>
  pageDocument({
    width: 100,
    height: 100,
    elements: [{ id: 'art', type: 'svg', x: 0, y: 0, width: 100, height: 100, svg }],
  });

const imageDoc = (src: string): DesignDocument =>
  pageDocument({
    width: 100,
    height: 100,
    elements: [{ id: 'pic', type: 'image', x: 0, y: 0, width: 100, height: 100, src }],
  });

/** A valid PNG header claiming width × height pixels, with a few bytes of data: a decompression bomb. */
function pngClaiming(width: number, height: number, real: Buffer): Buffer {
  const png = Buffer.from(real);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('hostile documents', () => {
  it('refuses a page beyond the side limit', async () => {
    const doc = pageDocument({ width: 100, height: 100 });
    const page = doc.pages[0];
    if (page) page.width = 20_000;
    const error = await failure(jobFor(doc));
    expect(error.details).toEqual({ pageId: 'p1', reason: 'page too large' });
  });

  it('refuses more than 50 megapixels after scale', async () => {
    const doc = pageDocument({ width: 8000, height: 8000 });
    const error = await failure(jobFor(doc, 'png', { scale: 2 }));
    expect(error.details.reason).toBe('too many pixels');
  });

  it('refuses an unknown page and a scale out of range', async () => {
    const doc = pageDocument({ width: 10, height: 10 });
    expect((await failure({ ...jobFor(doc), pageIds: ['nope'] })).details.reason).toBe('unknown page');
    expect((await failure(jobFor(doc, 'png', { scale: 9 }))).details.reason).toBe('invalid scale');
  });

  it('bounds thousands of elements: refused past the hard cap, rendered quickly below it', async () => {
    const rects = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `r${i}`,
        type: 'rect',
        x: i % 100,
        y: i % 97,
        width: 5,
        height: 5,
      }));
    const many = pageDocument({ width: 200, height: 200 });
    const page = many.pages[0];
    if (page)
      page.elements =
        documentOf([{ id: 'x', width: 10, height: 10, elements: rects(500) }]).pages[0]?.elements ?? [];
    if (page)
      page.elements = Array.from({ length: 19 }, () => page.elements)
        .flat()
        .map((el, i) => ({ ...el, id: `e${i}` }));
    const started = performance.now();
    const [file] = await renderInProcess(jobFor(many));
    expect(file?.width).toBe(200);
    expect(performance.now() - started).toBeLessThan(5000);
    if (page) page.elements = Array.from({ length: 2 }, () => page.elements).flat();
    expect((await failure(jobFor(many))).details.reason).toBe('too many elements');
  });

  it('refuses deeply nested SVG', async () => {
    const deep = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(200)}<rect width="1" height="1"/>${'</g>'.repeat(200)}</svg>`;
    const error = await failure(jobFor(svgDoc(deep)));
    expect(error.details).toMatchObject({ elementId: 'art', pageId: 'p1' });
    expect(error.details.reason).toMatch(/nesting deeper than 64/);
  });

  it('refuses malformed SVG and entity declarations', async () => {
    expect((await failure(jobFor(svgDoc('<svg><g><rect></svg>')))).details.reason).toMatch(/invalid SVG/);
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg>&b;</svg>';
    expect((await failure(jobFor(svgDoc(laughs)))).details.reason).toMatch(/DOCTYPE/);
  });

  it('refuses SVG that references files or the network', async () => {
    const local = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>`;
    expect((await failure(jobFor(svgDoc(local)))).details.reason).toMatch(/external reference/);
    const remote = `<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5" style="fill:url(http://example.com/x)"/></svg>`;
    expect((await failure(jobFor(svgDoc(remote)))).details.reason).toMatch(/external url/);
    const svgImage = `data:image/svg+xml;utf8,${encodeURIComponent(local)}`;
    expect((await failure(jobFor(imageDoc(svgImage)))).details).toMatchObject({ elementId: 'pic' });
  });

  it('refuses an image bomb from its header, before decoding', async () => {
    const bomb = pngClaiming(40_000, 40_000, await testPhoto(4, 4));
    const doc = imageDoc('asset:ast_bomb');
    const error = await failure(
      jobFor(doc, 'png', { assets: { ast_bomb: { bytes: bomb, mimeType: 'image/png' } } }),
    );
    expect(error.details).toMatchObject({
      elementId: 'pic',
      reason: 'the image is too large to decode (40000x40000 pixels)',
    });
  });

  it('refuses a redirect to a loopback address', async () => {
    const policy = {
      allowedProtocols: ['http:' as const, 'https:' as const],
      isAllowedAddress: (ip: string) => ip === '127.0.0.1',
    };
    const error = await failure(jobFor(imageDoc(`http://127.0.0.1:${port}/redirect-to-loopback`)), {
      fetchPolicy: policy,
    });
    expect(error.details).toMatchObject({
      elementId: 'pic',
      reason: 'image URL refused: the URL points to a private or loopback address',
    });
  });

  it('bounds an image URL that never answers', async () => {
    const job = jobFor(imageDoc(`http://127.0.0.1:${port}/hang`), 'png', { allowPrivateUrls: true });
    const error = await failure(job, { fetchPolicy: { timeoutMs: 300 } });
    expect(error.details.reason).toBe('image URL refused: the image fetch timed out');
  });

  it('bounds an image URL that sends too many bytes', async () => {
    const job = jobFor(imageDoc(`http://127.0.0.1:${port}/bomb`), 'png', { allowPrivateUrls: true });
    const error = await failure(job, { fetchPolicy: { maxBytes: 1024 * 1024 } });
    expect(error.details.reason).toBe('image URL refused: the image is larger than the fetch limit');
  });

  describe('every image is classified by its bytes, whatever its declared type', () => {
    const external = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>`;
    const commentThenSvg = (svg: string) => Buffer.from(`<!--${'x'.repeat(10_000)}-->\n${svg}`);
    const base64Png = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

    it('checks SVG hidden behind a long comment in a data:image/png URI', async () => {
      const error = await failure(jobFor(imageDoc(base64Png(commentThenSvg(external)))));
      expect(error.details).toMatchObject({
        elementId: 'pic',
        reason: expect.stringMatching(/external reference/),
      });
    });

    it('checks SVG bytes in an asset declared as a PNG', async () => {
      const doc = imageDoc('asset:ast_liar');
      const bytes = commentThenSvg('<!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg"/>');
      const job = jobFor(doc, 'png', { assets: { ast_liar: { bytes, mimeType: 'image/png' } } });
      expect((await failure(job)).details.reason).toMatch(/DOCTYPE/);
    });

    it('refuses bytes that are neither a known bitmap nor SVG', async () => {
      const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(64)]);
      expect((await failure(jobFor(imageDoc(base64Png(bmp))))).details.reason).toMatch(
        /not a PNG, JPEG, WebP, GIF or SVG/,
      );
    });

    it('checks images embedded in an SVG as data URIs: bitmap bombs and nested SVG', async () => {
      const bomb = pngClaiming(40_000, 40_000, await testPhoto(4, 4));
      const withBomb = `<svg xmlns="http://www.w3.org/2000/svg"><image href="${base64Png(bomb)}" width="10" height="10"/></svg>`;
      expect((await failure(jobFor(svgDoc(withBomb)))).details.reason).toMatch(/too large to decode/);
      const nested = `<svg xmlns="http://www.w3.org/2000/svg"><image href="${base64Png(commentThenSvg(external))}" width="10" height="10"/></svg>`;
      expect((await failure(jobFor(svgDoc(nested)))).details.reason).toMatch(/external reference/);
    });

    it('renders an honest PNG declared as SVG, and SVG declared as PNG, by what the bytes are', async () => {
      const png = await testPhoto(4, 4);
      const asSvg = `data:image/svg+xml;base64,${png.toString('base64')}`;
      expect((await renderInProcess(jobFor(imageDoc(asSvg))))[0]?.width).toBe(100);
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';
      expect((await renderInProcess(jobFor(imageDoc(base64Png(commentThenSvg(svg))))))[0]?.width).toBe(100);
    });
  });

  describe('SVG filters are costed before they are rasterised', () => {
    const filtered = (primitives: string, uses = 1) =>
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><filter id="f">${primitives}</filter>${'<rect width="100" height="100" filter="url(#f)"/>'.repeat(uses)}</svg>`;
    const bigSvgDoc = (svg: string) =>
      pageDocument({
        width: 2000,
        height: 2000,
        elements: [{ id: 'art', type: 'svg', x: 0, y: 0, width: 2000, height: 2000, svg }],
      });

    it('refuses turbulence with hundreds of octaves, naming the element', async () => {
      const svg = filtered('<feTurbulence baseFrequency="0.01" numOctaves="200"/>');
      const error = await failure(jobFor(bigSvgDoc(svg)));
      expect(error.details).toMatchObject({ elementId: 'art', pageId: 'p1' });
      expect(error.details.reason).toMatch(/filters are too costly.*limit is 500 million/);
    });

    it('refuses a huge morphology radius and a filter reused by many elements', async () => {
      expect(
        (await failure(jobFor(bigSvgDoc(filtered('<feMorphology radius="100"/>'))))).details.reason,
      ).toMatch(/too costly/);
      const blurs = filtered('<feGaussianBlur stdDeviation="5"/>', 60);
      expect((await failure(jobFor(bigSvgDoc(blurs)))).details.reason).toMatch(/too costly/);
    });

    it('renders an ordinary drop shadow at the same size', async () => {
      const svg = filtered('<feGaussianBlur stdDeviation="4"/><feOffset dx="2" dy="2"/>');
      expect((await renderInProcess(jobFor(bigSvgDoc(svg))))[0]?.width).toBe(2000);
    });
  });

  describe('effects (shadows, blurs, image filters) stay bounded', () => {
    const v2 = (width: number, height: number, elements: unknown[]): DesignDocument => {
      const parsed = parseDesignDocument({
        schemaVersion: 2,
        pages: [{ id: 'p1', width, height, elements }],
      });
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      return parsed.document;
    };

    it('renders a blur and a shadow of 250 on a 10000×10000 group over a small page quickly', async () => {
      // Layers cover the page plus the effect's reach, not the group; a wide blur runs at a lower
      // resolution. Measured: about 0.6 s (2-core machine).
      const doc = v2(2000, 2000, [
        {
          id: 'huge',
          type: 'group',
          x: -4000,
          y: -4000,
          width: 10000,
          height: 10000,
          rotation: 30,
          blur: 250,
          shadow: { color: '#000000', blur: 250, offsetX: 300, offsetY: 300 },
          elements: [
            { id: 'disc', type: 'ellipse', x: 0, y: 0, width: 10000, height: 10000, fill: '#3366cc' },
          ],
        },
      ]);
      const started = performance.now();
      const [file] = await renderInProcess(jobFor(doc));
      expect(file?.width).toBe(2000);
      expect(performance.now() - started).toBeLessThan(5000);
    });

    it('renders 500 shadowed, blurred, filtered elements quickly', async () => {
      const photo = `data:image/png;base64,${(await testPhoto(40, 30)).toString('base64')}`;
      const elements = Array.from({ length: 500 }, (_, i) => ({
        id: `e${i}`,
        type: i % 2 ? 'rect' : 'image',
        ...(i % 2 ? { fill: '#ff0000' } : { src: photo, filters: { blur: 3, grayscale: 1 } }),
        x: (i % 25) * 40,
        y: Math.floor(i / 25) * 50,
        width: 30,
        height: 30,
        blur: i % 3 ? 2 : undefined,
        shadow: { color: '#000000', blur: 10, offsetX: 3, offsetY: 3 },
      }));
      const started = performance.now();
      const [file] = await renderInProcess(jobFor(v2(1000, 1000, elements)));
      expect(file?.width).toBe(1000);
      expect(performance.now() - started).toBeLessThan(10_000);
    });

    it('refuses, naming the element, effects whose content overflows past the drawing budget', async () => {
      // Tiny boxes pass the up-front estimate (it weighs element boxes); their huge text does not
      // pass the drawing budget, which fails the render before doing that much work.
      const elements = Array.from({ length: 60 }, (_, i) => ({
        id: `t${i}`,
        type: 'text',
        x: 10,
        y: 10 + i,
        width: 1,
        height: 1,
        text: 'W W W W W W W W W W W W',
        fontSize: 1500,
        shadow: { color: '#000000', blur: 250, offsetX: 0, offsetY: 0 },
      }));
      const started = performance.now();
      const error = await failure(jobFor(v2(7000, 7000, elements)));
      expect(error.details.elementId).toMatch(/^t\d+$/);
      expect(error.details.reason).toMatch(/would pass over more than 300 megapixels/);
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  });
});
