/**
 * Chromium (Debian's, through playwright-core, with the browser tests' flags) served over HTTP
 * from its own process (protocol.ts), as Puppeteer/Playwright screenshot services run it: one warm
 * page at 1080×1080 holding the benchmark post (render-html.ts chromiumHtml). For each request the
 * page's headline text is replaced and, when the photo is another asset, the <img> is pointed at
 * that asset's URL on this server and awaited with `img.decode()`; then `page.screenshot`
 * (Playwright's, which sends CDP Page.captureScreenshot) takes PNG, or JPEG at quality 90.
 */
import { launchChromium } from '../../test/harness/chromium.ts';
import { chromiumHtml } from '../render-html.ts';
import {
  type PeerContext,
  type PeerRenderer,
  type PeerRenderRequest,
  type Photo,
  servePeer,
} from './protocol.ts';

async function chromiumRenderer({ base, defaultPhoto }: PeerContext): Promise<PeerRenderer> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1080, height: 1080 } });
    const photoUrl = (id: string) => `${base}/assets/${encodeURIComponent(id)}`;
    await page.setContent(chromiumHtml(photoUrl(defaultPhoto.id)), { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    return {
      async render(request: PeerRenderRequest, photo: Photo) {
        await page.evaluate(
          async ([headline, src]) => {
            const title = document.getElementById('headline');
            const img = document.getElementById('photo') as HTMLImageElement | null;
            if (!title || !img) throw new Error('the post has no headline or photo');
            title.textContent = headline;
            // Another photo: load and decode it before the shot, as a page must before it shows it.
            if (img.src !== src) {
              img.src = src;
              await img.decode();
            }
          },
          [request.headline, photoUrl(photo.id)] as const,
        );
        return page.screenshot(
          request.format === 'png' ? { type: 'png' } : { type: 'jpeg', quality: request.quality ?? 90 },
        );
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

await servePeer(async (context) => {
  const renderer = await chromiumRenderer(context);
  for (const format of ['png', 'jpeg'] as const)
    await renderer.render({ format, headline: 'Warming up', quality: 90 }, context.defaultPhoto);
  return renderer;
});
