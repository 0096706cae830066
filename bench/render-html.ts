/**
 * The benchmark design (bench/designs.ts socialPost) as HTML for Chromium: the same photo, card,
 * headline, paragraph and logo, with the same bundled Inter files embedded as data URLs, so the
 * browser does equivalent work.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const interDir = dirname(require.resolve('@expo-google-fonts/inter/package.json'));
const font = (file: string) =>
  `data:font/ttf;base64,${readFileSync(join(interDir, file)).toString('base64')}`;

const LOGO =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><circle cx='50' cy='50' r='46' fill='#1d1d35'/><path d='M30 70 L50 28 L70 70 Z' fill='#ffffff'/></svg>";

export function chromiumHtml(photo: string): string {
  return `<!doctype html><html><head><style>
@font-face { font-family: Inter; font-weight: 400; src: url(${font('400Regular/Inter_400Regular.ttf')}); }
@font-face { font-family: Inter; font-weight: 700; src: url(${font('700Bold/Inter_700Bold.ttf')}); }
html, body { margin: 0; width: 1080px; height: 1080px; overflow: hidden; background: #f4efe6; font-family: Inter; }
.abs { position: absolute; }
#photo { left: 0; top: 0; width: 1080px; height: 1080px; object-fit: cover; }
#card { left: 60px; top: 600px; width: 960px; height: 420px; background: #ffffffee; border-radius: 32px; }
#headline { left: 110px; top: 640px; width: 860px; height: 170px; font-size: 72px; font-weight: 700; color: #1d1d35; line-height: 1.1; margin: 0; }
#body { left: 110px; top: 830px; width: 760px; height: 160px; font-size: 30px; color: #333333; line-height: 1.4; margin: 0; }
#logo { left: 940px; top: 40px; width: 100px; height: 100px; }
</style></head><body>
<img id="photo" class="abs" src="${photo}">
<div id="card" class="abs"></div>
<h1 id="headline" class="abs">Summer collection is here</h1>
<p id="body" class="abs">Free shipping on every order over 50 euros. New arrivals every Friday, gifts for the first hundred customers.</p>
<div id="logo" class="abs">${LOGO}</div>
</body></html>`;
}

/** The version 2 design (bench/designs.ts richPost) as HTML: the same features in CSS, the barcode as SVG. */
export function chromiumRichHtml(photo: string, barcodeSvg: string): string {
  return `<!doctype html><html><head><style>
@font-face { font-family: Inter; font-weight: 400; src: url(${font('400Regular/Inter_400Regular.ttf')}); }
@font-face { font-family: Inter; font-weight: 700; src: url(${font('700Bold/Inter_700Bold.ttf')}); }
html, body { margin: 0; width: 1080px; height: 1080px; overflow: hidden; font-family: Inter; background: linear-gradient(180deg, #f4efe6, #e3d5c0); }
.abs { position: absolute; }
#photo { left: 0; top: 0; width: 1080px; height: 620px; object-fit: cover; object-view-box: inset(5% 10% 15% 10%); filter: brightness(1.05) saturate(1.2) sepia(0.2); }
#card { left: 60px; top: 560px; width: 960px; height: 460px; background: linear-gradient(135deg, #ffffff, #f1ecff); border-radius: 32px; box-shadow: 0 12px 24px rgba(29, 29, 53, 0.35); }
#headline { left: 110px; top: 600px; width: 860px; height: 170px; font-size: 72px; font-weight: 400; line-height: 1.1; margin: 0; background: linear-gradient(90deg, #1d1d35, #4b3f9e); -webkit-background-clip: text; color: transparent; }
#headline .new { color: #e4572e; }
#body { left: 110px; top: 790px; width: 560px; height: 190px; font-size: 30px; color: #333333; line-height: 1.4; margin: 0; }
#badge { left: 800px; top: 60px; width: 220px; height: 220px; transform: rotate(12deg); filter: drop-shadow(6px 10px 8px rgba(0, 0, 0, 0.4)); }
#badge div { width: 220px; height: 220px; border-radius: 50%; background: #e4572e; color: #fff; font-size: 64px; font-weight: 700; text-align: center; line-height: 220px; }
#barcode { left: 700px; top: 800px; width: 280px; height: 180px; }
#barcode svg { width: 100%; height: 100%; }
</style></head><body>
<img id="photo" class="abs" src="${photo}">
<div id="card" class="abs"></div>
<h1 id="headline" class="abs"><span class="new">New: </span><b id="headline-text">Summer collection is here</b></h1>
<p id="body" class="abs">Free shipping on every order over 50 euros. New arrivals every Friday.</p>
<div id="badge" class="abs"><div>-30%</div></div>
<div id="barcode" class="abs">${barcodeSvg}</div>
</body></html>`;
}

/** A preset's time window, in ms from the scene's start. */
interface TimeWindow {
  delayMs: number;
  durationMs: number;
}

/** The motion post's timing (bench/designs.ts motionTimingFor): the same numbers drive the CSS. */
export interface MotionHtmlTiming {
  durationMs: number;
  headline: TimeWindow;
  subtitle: TimeWindow;
  badge: TimeWindow;
}

/**
 * easeOutBack (Platen's `pop` curve: 1 + 2.70158(p-1)³ + 1.70158(p-1)²) is a cubic polynomial in
 * p, so it is exactly a CSS cubic Bézier whose x handles sit at 1/3 and 2/3 (then x = p): its
 * slope at 0, 4.70158, gives y1 = 4.70158 / 3, and its zero slope at 1 gives y2 = 1.
 */
const BACK_OUT = 'cubic-bezier(0.333333, 1.567193, 0.666667, 1)';
/** Where easeOutBack reaches 1/3: Platen's pop is fully opaque from there (opacity = min(1, 3·scale)). */
const POP_OPAQUE_AT = '7.9%';

const ms = (n: number) => `${Number(n.toFixed(3))}ms`;

/**
 * The motion post (bench/designs.ts motionDocument) as HTML with CSS animations equivalent to
 * Platen's presets: `slide-up` is translateY(half the page) to none with opacity 0 to 1, eased
 * ease-out; `typewriter` gives every character its own span, transparent until its moment (so
 * lines never move, as in Platen, where hidden characters are laid out transparent); `pop` scales
 * from 0 about the centre on the easeOutBack curve while it fades in. Animations fill backwards,
 * so the frame at time t is the same whether the page is recorded (Chromium: every animation
 * paused and set to t) or sampled (takumi: `timeMs`).
 *
 * The logo is an <img> of its SVG (takumi's HTML reader takes no inline SVG); fonts are the same
 * Inter files as @font-face for Chromium (takumi registers them through its API). `width` is the
 * page's, as motionDocument's: 1920 for the 1080p frame.
 */
export function motionHtml(
  photo: string,
  timing: MotionHtmlTiming,
  subtitle: string,
  badge: string,
  width = 1080,
): string {
  const { headline, subtitle: typed, badge: pop } = timing;
  const characters = Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(subtitle));
  // Platen shows the first floor(n·p) of n characters: character i appears once p reaches (i+1)/n.
  const spans = characters
    .map(({ segment }, i) => {
      const at = typed.delayMs + ((i + 1) * typed.durationMs) / characters.length;
      return `<span style="animation-delay: ${ms(at)}">${escapeHtml(segment)}</span>`;
    })
    .join('');
  const logo = `data:image/svg+xml;base64,${Buffer.from(LOGO).toString('base64')}`;
  return `<!doctype html><html><head><style>
@font-face { font-family: Inter; font-weight: 400; src: url(${font('400Regular/Inter_400Regular.ttf')}); }
@font-face { font-family: Inter; font-weight: 700; src: url(${font('700Bold/Inter_700Bold.ttf')}); }
@keyframes slide-up { from { transform: translateY(540px); opacity: 0; } to { transform: translateY(0px); opacity: 1; } }
@keyframes type { from { color: #333333; } to { color: #333333; } }
@keyframes pop { from { transform: scale(0); } to { transform: scale(1); } }
@keyframes pop-fade { from { opacity: 0; } ${POP_OPAQUE_AT} { opacity: 1; } to { opacity: 1; } }
html, body { margin: 0; width: ${width}px; height: 1080px; overflow: hidden; background: #f4efe6; font-family: Inter; }
#post { position: relative; width: ${width}px; height: 1080px; overflow: hidden; }
.abs { position: absolute; }
#photo { left: 0; top: 0; width: ${width}px; height: 1080px; object-fit: cover; }
#card { left: 60px; top: 600px; width: 960px; height: 420px; background: #ffffffee; border-radius: 32px; }
#headline { left: 110px; top: 640px; width: 860px; height: 170px; font-size: 72px; font-weight: 700; color: #1d1d35; line-height: 1.1; margin: 0; animation: slide-up ${ms(headline.durationMs)} ease-out ${ms(headline.delayMs)} both; }
#body { left: 110px; top: 830px; width: 760px; height: 160px; font-size: 30px; color: #333333; line-height: 1.4; margin: 0; }
#body span { color: transparent; animation: type 1ms linear forwards; }
#logo { left: ${width - 140}px; top: 40px; width: 100px; height: 100px; }
#badge { left: 60px; top: 60px; width: 220px; height: 220px; border-radius: 110px; background: #e4572e; color: #ffffff; font-size: 64px; font-weight: 700; line-height: 220px; text-align: center; animation: pop ${ms(pop.durationMs)} ${BACK_OUT} ${ms(pop.delayMs)} both, pop-fade ${ms(pop.durationMs)} linear ${ms(pop.delayMs)} both; }
</style></head><body><div id="post">
<img id="photo" class="abs" src="${photo}">
<div id="card" class="abs"></div>
<h1 id="headline" class="abs">Summer collection is here</h1>
<p id="body" class="abs">${spans}</p>
<img id="logo" class="abs" src="${logo}">
<div id="badge" class="abs">${escapeHtml(badge)}</div>
</div></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
