/**
 * The browser entry point stays browser-safe and really draws: browser.ts is bundled for the
 * browser with esbuild (no externals, so any Node builtin or native package fails the build or
 * shows in the metafile), then the bundle lays out and draws a page in headless Chromium and the
 * canvas pixels are checked.
 */
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/harness/studio.ts';
import { parseDesignDocument } from '../design/index.ts';
import { jobFor, PIXEL_THRESHOLD } from './goldens/harness.ts';
import { renderInProcess } from './render.ts';

const CHROMIUM = '/usr/bin/chromium';
const root = fileURLToPath(new URL('../..', import.meta.url));
const builtins = new Set(builtinModules);

const EXPECTED_EXPORTS = [
  'parseDesignDocument',
  'applyModifications',
  'designDocumentSchema',
  'createBlankDocument',
  'layoutPage',
  'pageImageSources',
  'svgElementImageKey',
  'drawOps',
  'drawPage',
  'DrawFailure',
  'createCanvasMeasurer',
  'createBrowserMeasurer',
  'createBrowserDrawHost',
  'bundledFontCatalog',
  'BUNDLED_FAMILIES',
];

let code = '';
let metafile: Metafile;

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/** A page with a `<canvas id="page">` and the bundle loaded as `window.platen`. */
async function pageWithBundle(browser: Browser, width: number, height: number) {
  const page = await browser.newPage();
  await page.setContent(`<!doctype html><canvas id="page" width="${width}" height="${height}"></canvas>`);
  // The bundle as an ES module from a blob URL; a module script exposes its namespace.
  const url = await page.evaluate(
    (source) => URL.createObjectURL(new Blob([source], { type: 'text/javascript' })),
    code,
  );
  await page.addScriptTag({ type: 'module', content: `import * as p from '${url}'; window.platen = p;` });
  await page.waitForFunction(() => 'platen' in window);
  return page;
}

beforeAll(async () => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/engine/browser.ts'],
    platform: 'browser',
    format: 'esm',
    bundle: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no output');
  code = output.text;
  metafile = result.metafile;
});

/** Why an import or input is not browser-safe, or null when it is. */
function nodeOnly(path: string): string | null {
  if (path.startsWith('node:') || builtins.has(path) || path.startsWith('(disabled):')) return 'Node builtin';
  if (/node_modules\/(@napi-rs|sharp|better-sqlite3|@img)\//.test(path)) return 'native package';
  return null;
}

describe('browser entry point', () => {
  it('bundles for the browser without Node builtins or native packages', () => {
    const offending: string[] = [];
    for (const [input, info] of Object.entries(metafile.inputs)) {
      if (nodeOnly(input)) offending.push(input);
      for (const imported of info.imports) {
        if (imported.external || nodeOnly(imported.original ?? imported.path))
          offending.push(`${input} → ${imported.original ?? imported.path}`);
      }
    }
    expect(offending).toEqual([]);
    expect(Object.keys(metafile.inputs)).toContain('src/engine/layout/page.ts');
    for (const output of Object.values(metafile.outputs)) expect(output.imports).toEqual([]);
    // Globals Node has and browsers lack are not imports, so esbuild cannot flag them: look for them.
    expect(code).not.toMatch(
      /\bBuffer\.(from|alloc|isBuffer|concat)\b|\bprocess\.(env|versions|platform|nextTick)\b/,
    );
  });

  it('exports what an editor needs', () => {
    const [output] = Object.values(metafile.outputs);
    expect(output?.exports).toEqual(expect.arrayContaining(EXPECTED_EXPORTS));
    // Recorded so a sudden jump (a heavy dependency pulled in) is noticed: about 1.2 MB of our own
    // code unminified, plus 1.5 MB for bwip-js's raw() barcode encoder, which holds every BWIPP
    // symbology (262 KB gzipped; docs/decisions.md, "Barcodes").
    expect(code.length).toBeLessThan(3_000_000);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'lays out and draws a page in headless Chromium (skipped when /usr/bin/chromium is not installed)',
    async () => {
      const browser = await launchChromium();
      try {
        const page = await pageWithBundle(browser, 400, 200);
        const document = {
          schemaVersion: 1,
          pages: [
            {
              id: 'p1',
              width: 200,
              height: 100,
              background: '#ffffff',
              elements: [
                { id: 'box', type: 'rect', x: 10, y: 10, width: 80, height: 80, fill: '#ff0000' },
                { id: 'disc', type: 'ellipse', x: 110, y: 10, width: 80, height: 80, fill: '#0000ff' },
              ],
            },
          ],
        };
        // Page units → canvas pixels at scale 2.
        const points = {
          rect: [100, 100],
          ellipse: [300, 100],
          ellipseBoxCorner: [226, 26],
          margin: [10, 10],
          between: [200, 100],
        };
        const pixels = await page.evaluate(
          ({ document, points }) => {
            const platen = (window as unknown as { platen: typeof import('./browser.ts') }).platen;
            const parsed = platen.parseDesignDocument(document);
            if (!parsed.ok) return { error: JSON.stringify(parsed.issues) };
            const designPage = parsed.document.pages[0];
            if (!designPage) return { error: 'no page' };
            const env = {
              measurer: platen.createBrowserMeasurer(),
              fonts: platen.bundledFontCatalog(),
              images: new Map(),
              deviceScale: 2,
            };
            const result = platen.layoutPage(designPage, env);
            if (!result.ok) return { error: result.reason };
            const canvas = window.document.getElementById('page') as HTMLCanvasElement;
            const ctx = canvas.getContext('2d');
            if (!ctx) return { error: 'no 2D context' };
            ctx.scale(2, 2);
            platen.drawPage(ctx, result.layout, platen.createBrowserDrawHost(new Map()));
            const read = ([x, y]: number[]) => [...ctx.getImageData(x ?? 0, y ?? 0, 1, 1).data];
            return {
              rect: read(points.rect),
              ellipse: read(points.ellipse),
              ellipseBoxCorner: read(points.ellipseBoxCorner),
              margin: read(points.margin),
              between: read(points.between),
            };
          },
          { document, points },
        );
        expect(pixels).toEqual({
          rect: [255, 0, 0, 255],
          ellipse: [0, 0, 255, 255],
          ellipseBoxCorner: [255, 255, 255, 255],
          margin: [255, 255, 255, 255],
          between: [255, 255, 255, 255],
        });
      } finally {
        await browser.close();
      }
    },
    120_000,
  );

  it.skipIf(!existsSync(CHROMIUM))(
    'draws gradients, groups, flips, shadows and blurs as the server does (within 0.5 % of pixels)',
    async () => {
      const document = {
        schemaVersion: 2,
        pages: [
          {
            id: 'p1',
            width: 300,
            height: 200,
            background: {
              type: 'linear',
              angle: 135,
              stops: [
                { offset: 0, color: '#f8fafc' },
                { offset: 1, color: '#cbd5e1' },
              ],
            },
            elements: [
              {
                id: 'g',
                type: 'group',
                x: 30,
                y: 30,
                width: 140,
                height: 90,
                rotation: 20,
                flipX: true,
                clip: true,
                shadow: { color: '#1e1b4bb3', blur: 16, offsetX: 8, offsetY: 10 },
                elements: [
                  {
                    id: 'bg',
                    type: 'rect',
                    x: 0,
                    y: 0,
                    width: 140,
                    height: 90,
                    cornerRadius: 14,
                    fill: {
                      type: 'radial',
                      stops: [
                        { offset: 0, color: '#facc15' },
                        { offset: 1, color: '#7c3aed' },
                      ],
                    },
                  },
                  { id: 'dot', type: 'ellipse', x: 100, y: -20, width: 60, height: 60, fill: '#16a34a' },
                ],
              },
              {
                id: 'soft',
                type: 'rect',
                x: 200,
                y: 40,
                width: 70,
                height: 110,
                fill: '#0ea5e9',
                blur: 6,
                opacity: 0.8,
              },
            ],
          },
        ],
      };
      const parsed = parseDesignDocument(document);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      const [server] = await renderInProcess({ ...jobFor(parsed.document), scale: 2 });
      const expected = PNG.sync.read(Buffer.from(server?.bytes ?? new Uint8Array()));
      const browser = await launchChromium();
      try {
        const page = await pageWithBundle(browser, 600, 400);
        const drawn = await page.evaluate((document) => {
          const platen = (window as unknown as { platen: typeof import('./browser.ts') }).platen;
          const parsed = platen.parseDesignDocument(document);
          if (!parsed.ok || !parsed.document.pages[0]) return { error: 'invalid' };
          const env = {
            measurer: platen.createBrowserMeasurer(),
            fonts: platen.bundledFontCatalog(),
            images: new Map(),
            deviceScale: 2,
          };
          const result = platen.layoutPage(parsed.document.pages[0], env);
          if (!result.ok) return { error: result.reason };
          const canvas = window.document.getElementById('page') as HTMLCanvasElement;
          const ctx = canvas.getContext('2d');
          if (!ctx) return { error: 'no 2D context' };
          ctx.scale(2, 2);
          platen.drawPage(ctx, result.layout, platen.createBrowserDrawHost(new Map()));
          return { pixels: Array.from(ctx.getImageData(0, 0, 600, 400).data) };
        }, document);
        if (!('pixels' in drawn) || !drawn.pixels) throw new Error(String(drawn.error));
        const actual = Buffer.from(drawn.pixels);
        const differing = pixelmatch(expected.data, actual, undefined, 600, 400, {
          threshold: PIXEL_THRESHOLD,
        });
        expect(differing).toBeLessThanOrEqual(600 * 400 * 0.005);
      } finally {
        await browser.close();
      }
    },
    // Chromium's start, the bundle and two renders: 8 s alone, past 30 s on a loaded CI machine.
    120_000,
  );
});
