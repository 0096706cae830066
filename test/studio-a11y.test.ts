/**
 * Accessibility of the embedded studio: axe-core, injected into the studio's frame, finds no
 * serious or critical violations on the browser screen and on the editor screen, and in every
 * version 2 panel (gradient fill and effects, image crop, filters and border, barcode, group and a
 * child selected inside it, the rich text toolbar with its link field), each reached with the
 * keyboard or through the layers panel; and in the motion panels (the timeline with its bars and
 * keyframes, an element's animation and keyframe fields, the preview with its banner, the page's
 * motion fields, a video's fields and the video picker). Every violation found (of any impact) is
 * printed. With PLATEN_SCREENSHOTS=1 it writes docs/screenshots/studio-v2-*.png and
 * studio-motion-*.png of those panels.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSession } from './harness/embeds.ts';
import { startTestServer, type TestServer } from './harness/server.ts';
import {
  chromiumMissing,
  ensureStudioBuilt,
  type HostPage,
  launchChromium,
  mintStudioSession,
  openStudio,
  startHostPage,
} from './harness/studio.ts';

if (chromiumMissing) console.log(`studio accessibility test skipped: ${chromiumMissing}`);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

async function audit(frame: Frame, screen: string): Promise<Violation[]> {
  await frame.evaluate(axeSource);
  const violations = (await frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } })
      .axe;
    return (await axe.run(document)).violations;
  })) as Violation[];
  for (const v of violations)
    console.info(
      `[axe ${screen}] ${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n'),
    );
  if (violations.length === 0) console.info(`[axe ${screen}] no violations`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe.skipIf(chromiumMissing !== null)('studio accessibility (Chromium, axe-core)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  it('has no serious or critical violations on the browser and editor screens', async () => {
    const session = await mintStudioSession(server, { brandTitle: 'Acme Studio' });
    const { frame } = await openStudio(page, host, { embedId: session.embedId, token: session.token });
    await frame.getByRole('heading', { name: 'New design' }).waitFor();
    const onBrowser = await audit(frame, 'browser');

    await frame.getByRole('button', { name: /New Instagram post/ }).click();
    await frame.getByRole('textbox', { name: 'Design name' }).waitFor();
    await frame.getByRole('button', { name: 'Add text' }).click();
    await frame.getByRole('textbox', { name: 'Text', exact: true }).waitFor();
    await page.waitForTimeout(500);
    const onEditor = await audit(frame, 'editor');

    expect({
      browser: onBrowser.map((v) => `${v.impact} ${v.id}`),
      editor: onEditor.map((v) => `${v.impact} ${v.id}`),
    }).toEqual({ browser: [], editor: [] });
  });

  it('has no serious or critical violations in the version 2 panels', async () => {
    const session = await mintStudioSession(server, {});
    const created = await asSession(server.base, session.token)(
      'POST',
      `/v1/embed/${session.embedId}/templates`,
      {
        body: { name: 'Version 2 panels', document: V2_DOCUMENT },
      },
    );
    expect(created.status, created.bytes.toString()).toBe(201);
    const { frame } = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId: String(created.json.id),
    });
    await frame.getByRole('img', { name: /^Page / }).waitFor();
    const found: Record<string, string[]> = {};
    const check = async (screen: string, shot?: string) => {
      await page.waitForTimeout(200);
      found[screen] = (await audit(frame, screen)).map((v) => `${v.impact} ${v.id}`);
      if (shot && process.env.PLATEN_SCREENSHOTS === '1') {
        mkdirSync('docs/screenshots', { recursive: true });
        await page.screenshot({ path: `docs/screenshots/studio-v2-${shot}.png` });
      }
    };
    const layer = (name: RegExp) => frame.getByRole('button', { name }).click();

    await layer(/^Select Rectangle/);
    await frame.getByRole('button', { name: 'Add stop to Fill' }).waitFor();
    await check('gradient fill and effects', 'gradient');
    await frame.getByRole('region', { name: 'Effects' }).scrollIntoViewIfNeeded();
    await check('effects', 'effects');
    await layer(/^Select Image/);
    await frame.getByRole('spinbutton', { name: 'Crop width (%)' }).waitFor();
    await check('image crop, filters and border', 'image');
    await layer(/^Select Barcode/);
    await frame.getByRole('combobox', { name: 'Barcode format' }).waitFor();
    await check('barcode', 'barcode');
    await layer(/^Select Group/);
    await frame.getByRole('checkbox', { name: 'Clip contents to the group box' }).waitFor();
    await check('group');
    await layer(/^Select Ellipse/);
    await frame.locator('rect.pe-scope').waitFor({ state: 'attached' });
    await check('inside a group', 'group');
    // The rich text toolbar, opened from the keyboard: select the text, Enter edits it.
    await layer(/^Select Text/);
    await frame.locator('.pe-viewport').focus();
    await page.keyboard.press('Enter');
    await frame.getByRole('toolbar', { name: 'Text style of the selection' }).waitFor();
    // Select the styled word: the toolbar shows its bold and colour.
    await page.keyboard.press('End');
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowLeft');
    await check('rich text toolbar', 'rich-text');
    await page.keyboard.press('Control+k');
    await frame.getByRole('textbox', { name: 'Link address (https or mailto)' }).waitFor();
    await check('rich text link field', 'rich-text-link');

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });

  it('has no serious or critical violations in the motion panels', async () => {
    const session = await mintStudioSession(server, {});
    const created = await asSession(server.base, session.token)(
      'POST',
      `/v1/embed/${session.embedId}/templates`,
      { body: { name: 'Motion panels', document: MOTION_DOCUMENT } },
    );
    expect(created.status, created.bytes.toString()).toBe(201);
    const { frame } = await openStudio(page, host, {
      embedId: session.embedId,
      token: session.token,
      templateId: String(created.json.id),
    });
    await frame.getByRole('img', { name: /^Page / }).waitFor();
    const found: Record<string, string[]> = {};
    const check = async (screen: string, shot?: string) => {
      await page.waitForTimeout(200);
      found[screen] = (await audit(frame, screen)).map((v) => `${v.impact} ${v.id}`);
      if (shot && process.env.PLATEN_SCREENSHOTS === '1') {
        mkdirSync('docs/screenshots', { recursive: true });
        await page.screenshot({ path: `docs/screenshots/studio-motion-${shot}.png` });
      }
    };

    // A page that moves opens with its timeline: bars, diamonds, the transport.
    await frame.getByRole('slider', { name: 'Fade in of Headline' }).waitFor();
    await check('timeline', 'timeline');
    // A bar moved from the keyboard, then the element's animation and keyframe fields.
    await frame.getByRole('slider', { name: 'Slide left in of Badge' }).focus();
    await page.keyboard.press('ArrowRight');
    await frame.getByRole('button', { name: /^Select Rectangle Badge/ }).click();
    await frame.getByRole('combobox', { name: 'Animation 1 preset' }).waitFor();
    await frame.getByRole('region', { name: 'Keyframes' }).scrollIntoViewIfNeeded();
    await check('animation and keyframe fields', 'fields');
    // Previewing: the scrubber stepped from the keyboard, the banner over the page.
    const scrubber = frame.getByRole('slider', { name: 'Playhead time' });
    await scrubber.focus();
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
    await frame.getByRole('button', { name: 'Back to editing' }).waitFor();
    await check('preview', 'preview');
    // The page's motion fields, with nothing selected.
    await frame.getByRole('button', { name: 'Back to editing' }).click();
    await frame.locator('.pe-viewport').focus();
    await page.keyboard.press('Escape');
    await frame.getByRole('combobox', { name: 'Transition to the next page' }).waitFor();
    await check('page motion fields');
    // A video element's fields (its asset is not listed: it draws as a failed image), the video picker.
    await frame.getByRole('button', { name: /^Select Video/ }).click();
    await frame.getByRole('spinbutton', { name: 'Start the clip at (s)' }).waitFor();
    await check('video fields', 'video');
    await frame.getByRole('button', { name: 'Add video' }).click();
    await frame.getByRole('dialog', { name: 'Choose a video' }).waitFor();
    await frame.getByText(/No videos yet|could not be listed/).waitFor();
    await check('video picker');
    await page.keyboard.press('Escape');

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
  });
});

/** Animations (some overlapping), keyframes, a group with an animated child, a video, two pages. */
const MOTION_DOCUMENT = {
  schemaVersion: 2,
  activePageId: 'p1',
  pages: [
    {
      id: 'p1',
      name: 'Intro',
      width: 800,
      height: 600,
      durationMs: 4000,
      transition: { type: 'fade', durationMs: 500 },
      background: '#f8fafc',
      elements: [
        {
          id: 'headline',
          name: 'Headline',
          type: 'text',
          x: 60,
          y: 60,
          width: 680,
          height: 90,
          text: 'Motion in the studio',
          fontSize: 56,
          fontWeight: 700,
          animations: [
            { preset: 'fade', phase: 'in', durationMs: 800 },
            { preset: 'typewriter', phase: 'in', delayMs: 200, durationMs: 1600 },
            { preset: 'fade', phase: 'out', durationMs: 600 },
          ],
        },
        {
          id: 'badge',
          name: 'Badge',
          type: 'rect',
          x: 60,
          y: 200,
          width: 200,
          height: 120,
          fill: '#4f7cff',
          cornerRadius: 16,
          animations: [{ preset: 'slide-left', phase: 'in', delayMs: 400, durationMs: 900 }],
          keyframes: [
            { timeMs: 0, rotation: 0 },
            { timeMs: 2000, rotation: 20 },
          ],
        },
        {
          id: 'g1',
          type: 'group',
          x: 320,
          y: 200,
          width: 200,
          height: 200,
          elements: [
            {
              id: 'dot',
              type: 'ellipse',
              x: 20,
              y: 20,
              width: 160,
              height: 160,
              fill: '#f97316',
              animations: [{ preset: 'pop', phase: 'in', delayMs: 600, durationMs: 700 }],
            },
          ],
        },
        { id: 'clip', type: 'video', x: 560, y: 360, width: 200, height: 112, src: 'asset:notuploaded' },
      ],
    },
    { id: 'p2', name: 'Outro', width: 800, height: 600, elements: [] },
  ],
};

const V2_DOCUMENT = {
  schemaVersion: 2,
  activePageId: 'p1',
  pages: [
    {
      id: 'p1',
      width: 800,
      height: 600,
      background: {
        type: 'linear',
        angle: 180,
        stops: [
          { offset: 0, color: '#ffffff' },
          { offset: 1, color: '#dbeafe' },
        ],
      },
      elements: [
        {
          id: 'r1',
          type: 'rect',
          x: 40,
          y: 40,
          width: 200,
          height: 150,
          fill: {
            type: 'radial',
            stops: [
              { offset: 0, color: '#fde047' },
              { offset: 1, color: '#15803d' },
            ],
          },
          shadow: { color: '#00000066', blur: 10, offsetX: 4, offsetY: 6 },
          flipX: true,
        },
        {
          id: 'i1',
          type: 'image',
          x: 300,
          y: 40,
          width: 200,
          height: 150,
          // A small landscape (sky, sun, hills), so the crop picture shows what is cut away.
          src: `data:image/svg+xml;utf8,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#7dd3fc"/><circle cx="300" cy="80" r="45" fill="#fde047"/><path d="M0 220 Q100 140 200 210 T400 190 V300 H0Z" fill="#16a34a"/><path d="M0 260 Q150 200 400 250 V300 H0Z" fill="#166534"/></svg>')}`,
          crop: { x: 0.1, y: 0.1, width: 0.8, height: 0.8 },
          filters: { grayscale: 0.5 },
          stroke: '#1d1d35',
          strokeWidth: 4,
          cornerRadius: 12,
        },
        {
          id: 'b1',
          type: 'barcode',
          x: 540,
          y: 40,
          width: 220,
          height: 100,
          format: 'code128',
          value: 'A11Y-1',
        },
        {
          id: 'g1',
          type: 'group',
          x: 40,
          y: 240,
          width: 300,
          height: 200,
          rotation: 8,
          clip: true,
          elements: [{ id: 'e1', type: 'ellipse', x: 20, y: 20, width: 120, height: 120, fill: '#4f7cff' }],
        },
        {
          id: 't1',
          type: 'text',
          x: 380,
          y: 260,
          width: 380,
          height: 120,
          fontSize: 32,
          spans: [{ text: 'Rich ' }, { text: 'text', fontWeight: 700, color: '#e11d48' }],
        },
      ],
    },
  ],
};
