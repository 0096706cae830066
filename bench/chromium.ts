/**
 * The peer in every benchmark: headless Chromium (Debian's, through playwright-core) rendering the
 * benchmark design as HTML (render-html.ts), warm, with the headline changed before each output.
 */
import { launchChromium } from '../test/harness/studio.ts';
import { chromiumHtml } from './render-html.ts';
import { timed } from './stats.ts';

/** Chromium, warm, changing the headline before each shot as a new render would: PNG, JPEG, PDF. */
export async function chromiumLatency(photo: string, iterations: number, warmups: number) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1080, height: 1080 } });
    await page.setContent(chromiumHtml(photo), { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    // Each shot changes the headline, so Chromium lays out and paints again as a new render would.
    const shoot = (type: 'png' | 'jpeg') => async (i: number) => {
      await page.evaluate((n) => {
        const el = document.getElementById('headline');
        if (el) el.textContent = `Summer collection, take ${n}`;
      }, i);
      await page.screenshot(type === 'png' ? { type } : { type, quality: 90 });
    };
    const printPdf = async (i: number) => {
      await page.evaluate((n) => {
        const el = document.getElementById('headline');
        if (el) el.textContent = `Summer collection, take ${n}`;
      }, i);
      await page.pdf({ width: '1080px', height: '1080px', printBackground: true, pageRanges: '1' });
    };
    return {
      png: await timed(iterations, warmups, shoot('png')),
      jpeg: await timed(iterations, warmups, shoot('jpeg')),
      pdf: await timed(iterations, warmups, printPdf),
    };
  } finally {
    await browser.close();
  }
}
