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
import { beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../test/harness/studio.ts';

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
    // Recorded so a sudden jump (a heavy dependency pulled in) is noticed: about 1 MB unminified today.
    expect(code.length).toBeLessThan(2_000_000);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'lays out and draws a page in headless Chromium (skipped when /usr/bin/chromium is not installed)',
    async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.setContent('<!doctype html><canvas id="page" width="400" height="200"></canvas>');
        // The bundle as an ES module from a blob URL; a module script exposes its namespace.
        const url = await page.evaluate(
          (code) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' })),
          code,
        );
        await page.addScriptTag({
          type: 'module',
          content: `import * as p from '${url}'; window.platen = p;`,
        });
        await page.waitForFunction(() => 'platen' in window);
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
  );
});
