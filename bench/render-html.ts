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
