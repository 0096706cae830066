/**
 * Motion in the embedded studio, in Chromium against the real server:
 *
 * - Frame-exact preview: an animated page (a slide, a zoom, a typewriter, keyframes, a fade inside
 *   a group) is opened at 100% zoom, the playhead is set through the scrubber (by value, and by
 *   stepping frames with the arrow keys), and the stage canvas must match the server's still of that
 *   time (`renderInProcess` with `timeMs`) in all but 0.5% of pixels (pixelmatch, threshold 0.1),
 *   at several times in the middle of the animations. The ratios are printed.
 * - Transitions: half-way through a fade and a slide into the next page, the stage equals the two
 *   scenes' stills at their times (as `layersAt` says) composed as the video pipeline composes them.
 * - Playback: Play and Pause, Space, Escape back to editing, the preview banner.
 * - The timeline: add an animation, move and stretch its bar with the keyboard and the pointer, edit
 *   its fields, add and delete a keyframe, the page's duration and transition; the saved document
 *   holds exactly those values.
 * - A video element: its frame at the playhead comes from a <video> seeked to the clip time. Until
 *   the service lists uploaded videos (the assets routes), the test answers the asset list and the
 *   file with a clip ffmpeg encodes, through Playwright's request routing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import type { Browser, Frame, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DesignDocument,
  layersAt,
  parseDesignDocument,
  type SceneLayer,
} from '../src/engine/browser.ts';
import { renderInProcess } from '../src/engine/in-process.ts';
import { asSession } from './harness/embeds.ts';
import { startTestServer, type TestServer } from './harness/server.ts';
import {
  chromiumMissing,
  ensureStudioBuilt,
  type HostPage,
  launchChromium,
  mintStudioSession,
  openStudio,
  type StudioSession,
  startHostPage,
} from './harness/studio.ts';

if (chromiumMissing) console.log(`studio motion test skipped: ${chromiumMissing}`);

const FFMPEG = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

const W = 400;
const H = 300;
const MAX_RATIO = 0.005;

const ANIMATED = {
  schemaVersion: 2,
  activePageId: 'p1',
  pages: [
    {
      id: 'p1',
      name: 'Motion',
      width: W,
      height: H,
      durationMs: 3000,
      background: '#f8fafc',
      elements: [
        {
          id: 'slider',
          type: 'rect',
          x: 20,
          y: 20,
          width: 160,
          height: 70,
          cornerRadius: 10,
          fill: '#4f7cff',
          animations: [{ preset: 'slide-left', phase: 'in', durationMs: 1200 }],
        },
        {
          id: 'zoomer',
          type: 'ellipse',
          x: 240,
          y: 20,
          width: 130,
          height: 130,
          fill: '#f97316',
          animations: [
            { preset: 'zoom', phase: 'in', delayMs: 300, durationMs: 1200, easing: 'ease-in-out' },
          ],
        },
        {
          id: 'typed',
          type: 'text',
          x: 20,
          y: 110,
          width: 200,
          height: 90,
          text: 'Typed out, letter by letter',
          fontFamily: 'Inter',
          fontSize: 26,
          fontWeight: 700,
          color: '#1d1d35',
          animations: [{ preset: 'typewriter', phase: 'in', durationMs: 1500 }],
        },
        {
          id: 'keyed',
          type: 'rect',
          x: 20,
          y: 220,
          width: 60,
          height: 50,
          fill: '#16a34a',
          keyframes: [
            { timeMs: 0, x: 20, rotation: 0, opacity: 0.3 },
            { timeMs: 1500, x: 320, rotation: 45, opacity: 1, easing: 'linear' },
          ],
        },
        {
          id: 'g1',
          type: 'group',
          x: 230,
          y: 170,
          width: 150,
          height: 110,
          rotation: -6,
          elements: [
            {
              id: 'card',
              type: 'rect',
              x: 0,
              y: 0,
              width: 150,
              height: 110,
              fill: '#1d1d35',
              cornerRadius: 12,
            },
            {
              id: 'label',
              type: 'text',
              x: 10,
              y: 30,
              width: 130,
              height: 50,
              text: 'Nested',
              fontFamily: 'Inter',
              fontSize: 28,
              color: '#ffffff',
              align: 'center',
              animations: [{ preset: 'pop', phase: 'in', delayMs: 200, durationMs: 1000 }],
            },
          ],
          animations: [{ preset: 'fade', phase: 'in', durationMs: 900 }],
        },
      ],
    },
  ],
};

/**
 * Scenes composed as the video pipeline composes a transition: on white, the second exactly one
 * page width after the first, each drawn over what is below with its alpha.
 */
function compose(layers: readonly SceneLayer[], stills: readonly PNG[]): PNG {
  const out = new PNG({ width: W, height: H });
  out.data.fill(255);
  const firstOffset = layers[0]?.offsetX ?? 0;
  const firstX = Math.round(firstOffset);
  layers.forEach((layer, index) => {
    const still = stills[index] as PNG;
    const left = firstX + Math.round((layer.offsetX - firstOffset) / W) * W;
    for (let y = 0; y < H; y++)
      for (let x = Math.max(0, left); x < Math.min(W, left + W); x++) {
        const from = (y * W + (x - left)) * 4;
        const to = (y * W + x) * 4;
        const a = ((still.data[from + 3] ?? 0) / 255) * layer.alpha;
        for (let c = 0; c < 3; c++)
          out.data[to + c] = Math.round((still.data[from + c] ?? 0) * a + (out.data[to + c] ?? 0) * (1 - a));
      }
  });
  return out;
}

describe.skipIf(chromiumMissing !== null)('studio motion (Chromium)', () => {
  let server: TestServer;
  let host: HostPage;
  let browser: Browser;
  let tab: Page;
  let session: StudioSession;

  beforeAll(async () => {
    await ensureStudioBuilt();
    server = await startTestServer();
    host = await startHostPage(server.base);
    browser = await launchChromium();
    tab = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
    session = await mintStudioSession(server, {}, 'motion-user');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  const call = () => asSession(server.base, session.token);

  async function createTemplate(name: string, document: object): Promise<string> {
    const created = await call()('POST', `/v1/embed/${session.embedId}/templates`, {
      body: { name, document },
    });
    expect(created.status, created.bytes.toString()).toBe(201);
    return String(created.json.id);
  }

  async function storedDocument(templateId: string): Promise<DesignDocument> {
    const res = await call()('GET', `/v1/embed/${session.embedId}/templates/${templateId}`);
    expect(res.status).toBe(200);
    return res.json.document as DesignDocument;
  }

  async function open(templateId: string): Promise<Frame> {
    const { frame } = await openStudio(tab, host, {
      embedId: session.embedId,
      token: session.token,
      templateId,
    });
    await frame.getByRole('img', { name: /^Page / }).waitFor();
    const zoom = frame.getByRole('button', { name: /^Zoom \d+%, set to 100%$/ });
    await zoom.click();
    await expect.poll(() => zoom.getAttribute('aria-label')).toBe('Zoom 100%, set to 100%');
    return frame;
  }

  /** Sets the playhead as a drag on the scrubber does: its value, then an `input` event. */
  async function scrubTo(frame: Frame, timeMs: number): Promise<void> {
    await frame.getByRole('slider', { name: 'Playhead time' }).evaluate((input, t) => {
      (input as HTMLInputElement).value = String(t);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, timeMs);
  }

  /** The canvas once its drawing has settled and two reads in a row agree. */
  async function canvasPng(frame: Frame): Promise<PNG> {
    await frame.locator('canvas[role="img"][aria-busy="false"]').waitFor({ timeout: 30_000 });
    const read = () =>
      frame.evaluate(
        () => document.querySelector<HTMLCanvasElement>('canvas[role="img"]')?.toDataURL() ?? '',
      );
    let previous = '';
    for (let i = 0; i < 20; i++) {
      await frame.page().waitForTimeout(250);
      const current = await read();
      if (current && current === previous) break;
      previous = current;
    }
    return PNG.sync.read(Buffer.from(previous.split(',')[1] ?? '', 'base64'));
  }

  async function serverPng(document: DesignDocument, timeMs: number, pageId = 'p1'): Promise<PNG> {
    const parsed = parseDesignDocument(document);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const [file] = await renderInProcess({
      document: parsed.document,
      pageIds: [pageId],
      format: 'png',
      timeMs,
      workspaceId: session.workspaceId,
      assets: {},
      fonts: [],
    });
    if (!file) throw new Error('no file rendered');
    return PNG.sync.read(Buffer.from(file.bytes));
  }

  function differing(studio: PNG, server: PNG): number {
    expect([studio.width, studio.height]).toEqual([W, H]);
    expect([server.width, server.height]).toEqual([W, H]);
    return pixelmatch(studio.data, server.data, undefined, W, H, { threshold: 0.1 }) / (W * H);
  }

  it('draws the frame at t as the server renders it at t, at times in the middle of the animations', async () => {
    const templateId = await createTemplate('Frame-exact', ANIMATED);
    const stored = await storedDocument(templateId);
    const frame = await open(templateId);
    const canvas = frame.getByRole('img', { name: /^Page / });
    const ratios: Record<string, number> = {};
    // Editing shows the page's own fields: the still at t differs from it (the slide is half-way).
    const editing = await canvasPng(frame);

    for (const t of [300, 700, 1100]) {
      await scrubTo(frame, t);
      await expect.poll(() => canvas.getAttribute('aria-label')).toContain('previewing');
      await expect
        .poll(() => frame.getByRole('slider', { name: 'Playhead time' }).getAttribute('aria-valuetext'))
        .toBe(`${(t / 1000).toFixed(2)} s of 3.00 s`);
      const studio = await canvasPng(frame);
      const ratio = differing(studio, await serverPng(stored, t));
      ratios[`${t} ms (scrubbed)`] = ratio;
      expect(ratio, `at ${t} ms`).toBeLessThan(MAX_RATIO);
      // The frame is not the still page: the comparison can fail.
      expect(differing(studio, editing), `at ${t} ms against the editing view`).toBeGreaterThan(0.02);
    }

    // The keyboard: Home, then 27 frames at 30 fps is 900 ms.
    const scrubber = frame.getByRole('slider', { name: 'Playhead time' });
    await scrubber.focus();
    await tab.keyboard.press('Home');
    for (let i = 0; i < 27; i++) await tab.keyboard.press('ArrowRight');
    await expect.poll(() => scrubber.getAttribute('aria-valuetext')).toBe('0.90 s of 3.00 s');
    const stepped = differing(await canvasPng(frame), await serverPng(stored, 900));
    ratios['900 ms (27 frames stepped)'] = stepped;
    expect(stepped).toBeLessThan(MAX_RATIO);
    console.info('[motion fidelity] share of pixels differing', ratios);
  }, 120_000);

  it('previews a transition as the two scenes at their times, composited as a video composes them', async () => {
    const page = (id: string, fill: string, transition?: object) => ({
      id,
      width: W,
      height: H,
      durationMs: 2000,
      background: id === 'p1' ? '#fff7ed' : '#eff6ff',
      ...(transition ? { transition } : {}),
      elements: [
        {
          id: `${id}-box`,
          type: 'rect',
          x: 60,
          y: 60,
          width: 280,
          height: 180,
          fill,
          animations: [{ preset: 'zoom', phase: 'in', durationMs: 900 }],
        },
      ],
    });
    for (const type of ['fade', 'slide']) {
      const templateId = await createTemplate(`Transition ${type}`, {
        schemaVersion: 2,
        activePageId: 'p1',
        pages: [page('p1', '#f97316', { type, durationMs: 800 }), page('p2', '#4f7cff')],
      });
      const stored = await storedDocument(templateId);
      const frame = await open(templateId);
      // 1.6 s into the first page: half-way through its transition into the second.
      await scrubTo(frame, 1600);
      const studio = await canvasPng(frame);
      const layers = layersAt(stored.pages, 1600);
      expect(layers.map((l) => l.pageIndex)).toEqual([0, 1]);
      const stills = await Promise.all(
        layers.map((l) => serverPng(stored, l.timeMs, stored.pages[l.pageIndex]?.id)),
      );
      const expected = compose(layers, stills);
      // Both scenes show: the composite is far from either page alone.
      for (const still of stills) expect(differing(expected, still)).toBeGreaterThan(0.1);
      const ratio = differing(studio, expected);
      console.info(`[motion fidelity] ${type} transition at 1.6 s: ${(ratio * 100).toFixed(3)}% differ`);
      expect(ratio).toBeLessThan(MAX_RATIO);
      // Transitions off: the first page alone, as a video of this page alone shows it.
      await frame.getByRole('button', { name: 'Transitions', exact: true }).click();
      expect(differing(await canvasPng(frame), await serverPng(stored, 1600))).toBeLessThan(MAX_RATIO);
    }
  }, 120_000);

  it('plays and pauses with the button and Space, and goes back to editing with Escape', async () => {
    const templateId = await createTemplate('Playback', ANIMATED);
    const frame = await open(templateId);
    const canvas = frame.getByRole('img', { name: /^Page / });
    await frame.getByRole('button', { name: 'Play', exact: true }).click();
    await frame.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await expect.poll(() => canvas.getAttribute('aria-label')).toContain('previewing');
    await frame.getByText('Playing the preview').waitFor();
    const scrubber = frame.getByRole('slider', { name: 'Playhead time' });
    await expect.poll(async () => Number(await scrubber.inputValue())).toBeGreaterThan(100);
    // Space on the stage (not in a field) pauses; the time stays.
    await frame.locator('.pe-viewport').focus();
    await tab.keyboard.press('Space');
    await frame.getByRole('button', { name: 'Play', exact: true }).waitFor();
    const paused = Number(await scrubber.inputValue());
    await tab.waitForTimeout(300);
    expect(Number(await scrubber.inputValue())).toBe(paused);
    await frame.getByText(/^Preview at \d+\.\d\d s/).waitFor();
    // Space in a text field types.
    await frame.getByRole('spinbutton', { name: 'Page duration (s)' }).focus();
    await tab.keyboard.press('Space');
    expect(await frame.getByRole('button', { name: 'Play', exact: true }).isVisible()).toBe(true);
    // Escape: back to the page's own fields, at the same time.
    await frame.locator('.pe-viewport').focus();
    await tab.keyboard.press('Escape');
    await expect.poll(() => canvas.getAttribute('aria-label')).not.toContain('previewing');
    expect(Number(await scrubber.inputValue())).toBe(paused);
    // Playing runs to the page's end and stops there.
    await scrubber.focus();
    await tab.keyboard.press('End');
    await tab.keyboard.press('Shift+ArrowLeft');
    await tab.keyboard.press('Space');
    await frame.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await frame.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 5000 });
    expect(Number(await scrubber.inputValue())).toBe(3000);
  }, 60_000);

  it('edits animations, keyframes, the page duration and the transition in the timeline, saved as such', async () => {
    const document = {
      schemaVersion: 2,
      activePageId: 'p1',
      pages: [
        {
          id: 'p1',
          width: W,
          height: H,
          elements: [
            { id: 'box', name: 'Box', type: 'rect', x: 40, y: 40, width: 120, height: 80, fill: '#4f7cff' },
          ],
        },
        { id: 'p2', width: W, height: H, elements: [] },
      ],
    };
    const templateId = await createTemplate('Timeline', document);
    const frame = await open(templateId);
    // A still design opens with the timeline folded away.
    const toggle = frame.getByRole('button', { name: 'Timeline', exact: true });
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();

    await frame.getByRole('button', { name: 'Add an animation to Box' }).click();
    const bar = frame.getByRole('slider', { name: 'Fade in of Box' });
    await expect.poll(() => bar.getAttribute('aria-valuetext')).toBe('starts at 0.00 s, lasts 0.60 s');
    await bar.focus();
    for (let i = 0; i < 3; i++) await tab.keyboard.press('ArrowRight');
    await tab.keyboard.press('Shift+ArrowRight');
    await tab.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => bar.getAttribute('aria-valuetext')).toBe('starts at 0.30 s, lasts 0.80 s');
    expect(await bar.evaluate((el) => el.ownerDocument.activeElement === el)).toBe(true);

    // The pointer: drag the bar right by a tenth of the track (0.5 s of 5 s), then its end.
    const track = await frame.getByRole('group', { name: 'Timeline of Box' }).boundingBox();
    const box = await bar.boundingBox();
    if (!track || !box) throw new Error('no track');
    const dx = track.width / 10;
    await tab.mouse.move(box.x + 10, box.y + box.height / 2);
    await tab.mouse.down();
    await tab.mouse.move(box.x + 10 + dx / 2, box.y + box.height / 2);
    await tab.mouse.move(box.x + 10 + dx, box.y + box.height / 2);
    await tab.mouse.up();
    await expect.poll(() => bar.getAttribute('aria-valuetext')).toBe('starts at 0.80 s, lasts 0.80 s');
    const moved = await bar.boundingBox();
    if (!moved) throw new Error('no bar');
    await tab.mouse.move(moved.x + moved.width - 2, moved.y + moved.height / 2);
    await tab.mouse.down();
    await tab.mouse.move(moved.x + moved.width - 2 + dx, moved.y + moved.height / 2);
    await tab.mouse.up();
    await expect.poll(() => bar.getAttribute('aria-valuetext')).toBe('starts at 0.80 s, lasts 1.30 s');

    // Its fields (the drag selected the box).
    await frame.getByRole('combobox', { name: 'Animation 1 preset' }).selectOption('zoom');
    await frame.getByRole('combobox', { name: 'Animation 1 phase' }).selectOption('out');
    await frame.getByRole('combobox', { name: 'Animation 1 easing' }).selectOption('linear');
    await frame.getByRole('slider', { name: 'Zoom out of Box' }).waitFor();
    // A second animation from the properties panel, then removed again.
    await frame.getByRole('combobox', { name: 'New animation preset' }).selectOption('slide-up');
    await frame.getByRole('button', { name: 'Add animation', exact: true }).click();
    const second = frame.getByRole('slider', { name: 'Slide up in of Box' });
    await second.focus();
    await tab.keyboard.press('Delete');
    await expect.poll(() => second.count()).toBe(0);

    // A keyframe at the playhead holds the box's own position; Delete on its diamond removes it.
    await scrubTo(frame, 1000);
    await frame.getByRole('button', { name: 'Add a keyframe to Box at the playhead' }).click();
    const diamond = frame.getByRole('button', { name: 'Keyframe at 1.00 s of Box' });
    await diamond.waitFor();
    await scrubTo(frame, 2000);
    await frame.getByRole('button', { name: 'Add keyframe at 2.00 s' }).click();
    await frame.getByRole('button', { name: 'Keyframe at 2.00 s of Box' }).waitFor();
    await diamond.focus();
    await tab.keyboard.press('Delete');
    await expect.poll(() => diamond.count()).toBe(0);

    // The page: 4 s long, sliding into the next page.
    const duration = frame.getByRole('spinbutton', { name: 'Page duration (s)' });
    await duration.fill('4');
    await duration.blur();
    await expect
      .poll(() => frame.getByRole('slider', { name: 'Playhead time' }).getAttribute('max'))
      .toBe('4000');
    // Escape ends the preview, then deselects: the page's properties show.
    await frame.locator('.pe-viewport').focus();
    await tab.keyboard.press('Escape');
    await tab.keyboard.press('Escape');
    await frame.getByRole('combobox', { name: 'Transition to the next page' }).selectOption('slide');
    const transition = frame.getByRole('spinbutton', { name: 'Transition duration (s)' });
    await transition.fill('0.8');
    await transition.blur();

    await expect
      .poll(
        async () => {
          const stored = await storedDocument(templateId);
          return stored.pages[0];
        },
        { timeout: 15_000 },
      )
      .toMatchObject({
        durationMs: 4000,
        transition: { type: 'slide', durationMs: 800 },
        elements: [
          {
            id: 'box',
            animations: [{ preset: 'zoom', phase: 'out', delayMs: 800, durationMs: 1300, easing: 'linear' }],
            keyframes: [{ timeMs: 2000, x: 40, y: 40, opacity: 1, rotation: 0 }],
          },
        ],
      });
  }, 90_000);

  it('previews a video element with the frame of its clip at the playhead', async () => {
    // Two seconds: red, then blue, so the frame shown tells the clip time.
    const dir = mkdtempSync(join(tmpdir(), 'platen-motion-'));
    const file = join(dir, 'clip.webm');
    try {
      execFileSync(
        FFMPEG,
        [
          ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=160x90:r=10:d=1'],
          ...['-f', 'lavfi', '-i', 'color=c=blue:s=160x90:r=10:d=1'],
          ...['-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0,format=yuv420p', '-c:v', 'libvpx-vp9', file],
        ],
        { stdio: 'pipe' },
      );
      const clip = readFileSync(file);
      const url = '/files/assets/test/clip/clip.webm';
      const asset = {
        id: 'clip1',
        kind: 'video',
        mimeType: 'video/webm',
        url,
        width: 160,
        height: 90,
        durationMs: 2000,
      };
      await tab.route(
        (u) => u.pathname.startsWith('/v1/embed/') && u.pathname.endsWith('/assets'),
        (route) =>
          route.request().method() === 'GET'
            ? route.fulfill({ json: { items: [asset], nextCursor: null } })
            : route.continue(),
      );
      // Answered as a file server with Range support answers: a media element seeks only then.
      await tab.route(`**${url}`, (route) => {
        const range = /bytes=(\d+)-(\d*)/.exec(route.request().headers().range ?? '');
        const headers = { 'accept-ranges': 'bytes' };
        if (!range) return route.fulfill({ body: clip, contentType: 'video/webm', headers });
        const start = Number(range[1]);
        const end = range[2] ? Number(range[2]) : clip.length - 1;
        return route.fulfill({
          status: 206,
          body: clip.subarray(start, end + 1),
          contentType: 'video/webm',
          headers: { ...headers, 'content-range': `bytes ${start}-${end}/${clip.length}` },
        });
      });

      const templateId = await createTemplate('Video', {
        schemaVersion: 2,
        activePageId: 'p1',
        pages: [
          {
            id: 'p1',
            width: W,
            height: H,
            elements: [
              {
                id: 'v1',
                type: 'video',
                x: 40,
                y: 60,
                width: 320,
                height: 180,
                src: 'asset:clip1',
                fit: 'cover',
              },
            ],
          },
        ],
      });
      const frame = await open(templateId);
      const colourAt = async () => {
        const png = await canvasPng(frame);
        const i = (150 * W + 200) * 4;
        return [png.data[i], png.data[i + 1], png.data[i + 2]];
      };
      const reddish = (c: (number | undefined)[]) => (c[0] ?? 0) > 180 && (c[2] ?? 255) < 80;
      const bluish = (c: (number | undefined)[]) => (c[2] ?? 0) > 180 && (c[0] ?? 255) < 80;
      expect(reddish(await colourAt())).toBe(true);
      await scrubTo(frame, 1500);
      await expect.poll(colourAt, { timeout: 15_000 }).toSatisfy(bluish);
      await scrubTo(frame, 500);
      await expect.poll(colourAt, { timeout: 15_000 }).toSatisfy(reddish);

      // Starting the clip 1.2 s in shows blue from the scene's start.
      await frame.getByRole('button', { name: /^Select Video/ }).click();
      const trim = frame.getByRole('spinbutton', { name: 'Start the clip at (s)' });
      await trim.fill('1.2');
      await trim.blur();
      await expect.poll(colourAt, { timeout: 15_000 }).toSatisfy(bluish);
      await frame.getByRole('checkbox', { name: 'Loop the clip' }).check();
      await frame.getByRole('checkbox', { name: 'Muted' }).check();
      await expect
        .poll(async () => (await storedDocument(templateId)).pages[0]?.elements[0], { timeout: 15_000 })
        .toMatchObject({ trimStartMs: 1200, loop: true, muted: true });

      // The video picker lists the videos.
      await frame.getByRole('button', { name: 'Add video' }).click();
      await frame.getByRole('dialog', { name: 'Choose a video' }).waitFor();
      await frame.getByRole('button', { name: 'Use video clip1' }).click();
      await expect
        .poll(async () => (await storedDocument(templateId)).pages[0]?.elements.length, { timeout: 15_000 })
        .toBe(2);
    } finally {
      await tab.unrouteAll();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
