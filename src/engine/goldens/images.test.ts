/**
 * Golden and behaviour of images: cover/contain/fill, corner radius, sources from job assets,
 * data URIs (PNG, JPEG, SVG) and http(s) URLs (through the fetch guard, here on loopback with
 * private URLs allowed), and a failing image reported as a RenderError naming the element.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderError } from '../errors.ts';
import { renderInProcess } from '../render.ts';
import { compareGolden, jobFor, pageDocument, renderPng, testPhoto } from './harness.ts';

let server: Server;
let base = '';
let photoPng: Buffer;
let photoJpeg: Buffer;

beforeAll(async () => {
  photoPng = await testPhoto(300, 200, 'png');
  photoJpeg = await testPhoto(200, 300, 'jpeg');
  server = createServer((req, res) => {
    if (req.url === '/photo.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(photoJpeg);
      return;
    }
    if (req.url === '/not-an-image') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const SVG_LOGO =
  "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 20'><rect width='40' height='20' rx='4' fill='%231d4ed8'/><circle cx='10' cy='10' r='6' fill='%23facc15'/></svg>";

function imagesDocument() {
  const box = { type: 'image', width: 160, height: 120 };
  return pageDocument({
    width: 560,
    height: 300,
    background: { src: 'asset:ast_background', fit: 'cover' },
    elements: [
      { id: 'frame-cover', type: 'rect', x: 20, y: 20, width: 160, height: 120, fill: '#ffffff' },
      { ...box, id: 'cover', x: 20, y: 20, src: 'asset:ast_photo', fit: 'cover' },
      { id: 'frame-contain', type: 'rect', x: 200, y: 20, width: 160, height: 120, fill: '#ffffff' },
      { ...box, id: 'contain', x: 200, y: 20, src: 'asset:ast_photo', fit: 'contain' },
      { id: 'frame-fill', type: 'rect', x: 380, y: 20, width: 160, height: 120, fill: '#ffffff' },
      { ...box, id: 'fill', x: 380, y: 20, src: 'asset:ast_photo', fit: 'fill' },
      {
        ...box,
        id: 'rounded',
        x: 20,
        y: 160,
        src: `data:image/png;base64,${photoPng.toString('base64')}`,
        cornerRadius: 30,
      },
      { ...box, id: 'url', x: 200, y: 160, src: `${base}/photo.jpg`, fit: 'cover', cornerRadius: 60 },
      { ...box, id: 'svg', x: 380, y: 160, src: SVG_LOGO, fit: 'contain' },
    ],
  });
}

const assets = () => ({
  ast_photo: { bytes: photoPng, mimeType: 'image/png' },
  ast_background: { bytes: photoJpeg, mimeType: 'image/jpeg' },
});

describe('images', () => {
  it('matches the golden', async () => {
    const file = await renderPng(imagesDocument(), { assets: assets(), allowPrivateUrls: true });
    const result = await compareGolden('images', file.bytes);
    expect(result.message).toBe(result.pass ? result.message : 'match');
  });

  it('names the element whose asset is missing', async () => {
    const error = await renderInProcess(
      jobFor(imagesDocument(), 'png', { assets: {}, allowPrivateUrls: true }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect(error.code).toBe('RENDER_FAILED');
    expect(error.details.pageId).toBe('p1');
    expect(error.details.reason).toMatch(/asset ast_/);
  });

  it('names the element whose URL is not an image', async () => {
    const doc = pageDocument({
      width: 100,
      height: 100,
      elements: [
        { id: 'bad', type: 'image', x: 0, y: 0, width: 50, height: 50, src: `${base}/not-an-image` },
      ],
    });
    const error = await renderInProcess(jobFor(doc, 'png', { allowPrivateUrls: true })).catch((e) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect(error.details).toMatchObject({ elementId: 'bad', pageId: 'p1' });
    expect(error.details.reason).toMatch(/could not be decoded/);
  });

  it('refuses loopback URLs unless private URLs are allowed', async () => {
    const doc = pageDocument({
      width: 100,
      height: 100,
      elements: [{ id: 'local', type: 'image', x: 0, y: 0, width: 50, height: 50, src: `${base}/photo.jpg` }],
    });
    const error = await renderInProcess(jobFor(doc, 'png')).catch((e) => e);
    expect(error).toBeInstanceOf(RenderError);
    expect(error.details.elementId).toBe('local');
    expect(error.details.reason).toMatch(/image URL refused/);
  });
});
