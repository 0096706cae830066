/**
 * The video benchmark's peers, each drawing the motion post's HTML twin (render-html.ts
 * motionHtml) warm:
 * - Chromium (Debian's, through playwright-core) recording the way Puppeteer-based services do
 *   (Remotion's defaults): for each frame, pause every animation and set its currentTime to the
 *   frame's time, take a screenshot over CDP (`Page.captureScreenshot`, JPEG quality 80) and pipe
 *   the images to ffmpeg (`-f image2pipe`), which encodes the MP4.
 * - takumi (`@takumi-rs/core`, Rust, no browser): `renderAnimation` samples the same CSS
 *   animations at each frame time and encodes an animated GIF itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Renderer } from '@takumi-rs/core';
import { fromHtml } from '@takumi-rs/helpers/html';
import { launchChromium } from './chromium.ts';
import { pipeEncoder } from './ffmpeg.ts';

/** Remotion's defaults for a video's frames: JPEG at quality 80. */
export const CHROMIUM_FRAME_FORMAT = { format: 'jpeg', quality: 80 } as const;

export interface ChromiumRecorder {
  /**
   * Records `frames` frames at `fps` into an MP4 written by ffmpeg with these output arguments;
   * answers the seconds spent seeking and capturing (ffmpeg encodes meanwhile, in its own process).
   */
  record(file: string, frames: number, fps: number, x264Args: string[]): Promise<number>;
  close(): Promise<void>;
}

/** A warm page holding the animation, ready to record it any number of times. */
export async function chromiumRecorder(
  html: string,
  viewport = { width: 1080, height: 1080 },
): Promise<ChromiumRecorder> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport });
    await page.setContent(html, { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    const cdp = await page.context().newCDPSession(page);
    return {
      async record(file, frames, fps, x264Args) {
        // The screenshots are JPEGs: ffmpeg decodes them with its MJPEG decoder.
        const encoder = pipeEncoder(['-framerate', String(fps), '-c:v', 'mjpeg'], x264Args, file);
        let capturing = 0;
        try {
          for (let i = 0; i < frames; i++) {
            const started = performance.now();
            await page.evaluate(
              (timeMs) => {
                for (const animation of document.getAnimations()) {
                  animation.pause();
                  animation.currentTime = timeMs;
                }
              },
              (i * 1000) / fps,
            );
            const shot = (await cdp.send('Page.captureScreenshot', {
              ...CHROMIUM_FRAME_FORMAT,
              captureBeyondViewport: false,
            })) as { data: string };
            capturing += performance.now() - started;
            await encoder.write(Buffer.from(shot.data, 'base64'));
          }
        } finally {
          await encoder.finish();
        }
        return capturing / 1000;
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

const require = createRequire(import.meta.url);
const interDir = dirname(require.resolve('@expo-google-fonts/inter/package.json'));

export interface TakumiAnimator {
  /** An animated GIF of the first `durationMs` of the animation at `fps`, the 1080 page drawn at `scale`. */
  gif(durationMs: number, fps: number, scale: number): Promise<Buffer>;
}

/** A takumi renderer with the Inter files Platen bundles (400 and 700) registered. */
export async function takumiWithInter(): Promise<Renderer> {
  const renderer = new Renderer();
  for (const [weight, file] of [
    [400, '400Regular/Inter_400Regular.ttf'],
    [700, '700Bold/Inter_700Bold.ttf'],
  ] as const)
    await renderer.registerFont({ name: 'Inter', weight, data: readFileSync(join(interDir, file)) });
  return renderer;
}

/** A takumi renderer with the same Inter files registered and the HTML parsed once (warm). */
export async function takumiAnimator(html: string): Promise<TakumiAnimator> {
  const renderer = await takumiWithInter();
  const { node, css } = fromHtml(html);
  return {
    gif: (durationMs, fps, scale) =>
      renderer.renderAnimation({
        scenes: [{ node, durationMs }],
        // The output's pixels; the device pixel ratio draws the 1080-pixel page into them.
        width: Math.round(1080 * scale),
        height: Math.round(1080 * scale),
        devicePixelRatio: scale,
        fps,
        format: 'gif',
        css,
      }),
  };
}
