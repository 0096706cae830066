/**
 * The peer in every benchmark: headless Chromium (Debian's, through playwright-core) rendering the
 * benchmark design as HTML (render-html.ts), warm, with the headline changed before each output.
 */
import { launchChromium } from '../test/harness/chromium.ts';
import { chromiumHtml } from './render-html.ts';
import { timed } from './stats.ts';

/** Debian's Chromium with the browser tests' flags (test/harness/chromium.ts, which loads nothing of the service). */
export { launchChromium };

/** Chromium, warm, changing the headline before each shot as a new render would: PNG, JPEG, PDF. */
export async function chromiumLatency(photo: string, iterations: number, warmups: number) {
  return chromiumLatencyOf(chromiumHtml(photo), 'headline', iterations, warmups);
}

/** The same for any page whose element `headlineId` holds the text that changes. */
export async function chromiumLatencyOf(
  html: string,
  headlineId: string,
  iterations: number,
  warmups: number,
) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1080, height: 1080 } });
    await page.setContent(html, { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    // Each shot changes the headline, so Chromium lays out and paints again as a new render would.
    const shoot = (type: 'png' | 'jpeg') => async (i: number) => {
      await page.evaluate(
        ([n, id]) => {
          const el = document.getElementById(id as string);
          if (el) el.textContent = `Summer collection, take ${n}`;
        },
        [i, headlineId] as const,
      );
      await page.screenshot(type === 'png' ? { type } : { type, quality: 90 });
    };
    const printPdf = async (i: number) => {
      await page.evaluate(
        ([n, id]) => {
          const el = document.getElementById(id as string);
          if (el) el.textContent = `Summer collection, take ${n}`;
        },
        [i, headlineId] as const,
      );
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
