/**
 * The editor's dev page: mounts the editor alone (no shell, no server) on the promo-card fixture,
 * with the bundled TTFs loaded as FontFaces from the dev server and an in-memory asset list.
 * Query: ?readOnly=1, ?assets=0 (no asset picker), ?resize=0 (no smart resize).
 * window.__editor exposes the handle and every onChange document, for the Playwright check.
 */
import fixture from '../../src/design/fixtures/promo-card.json' with { type: 'json' };
import { type DesignDocument, parseDesignDocument } from '../../src/engine/browser.ts';
import type { EditorHandle, StudioAsset } from '../src/editor/contract.ts';
import { mountEditor } from '../src/editor/index.ts';

/** Faces served by serve.ts from node_modules/@expo-google-fonts/<package>/<dir>/<file>. */
const FACES: [family: string, path: string, weight: number, style: 'normal' | 'italic'][] = [
  ['Inter', 'inter/400Regular/Inter_400Regular.ttf', 400, 'normal'],
  ['Inter', 'inter/500Medium/Inter_500Medium.ttf', 500, 'normal'],
  ['Inter', 'inter/700Bold/Inter_700Bold.ttf', 700, 'normal'],
  ['Inter', 'inter/400Regular_Italic/Inter_400Regular_Italic.ttf', 400, 'italic'],
  ['Playfair Display', 'playfair-display/400Regular/PlayfairDisplay_400Regular.ttf', 400, 'normal'],
  ['Playfair Display', 'playfair-display/700Bold/PlayfairDisplay_700Bold.ttf', 700, 'normal'],
  ['Roboto', 'roboto/400Regular/Roboto_400Regular.ttf', 400, 'normal'],
  ['Roboto', 'roboto/700Bold/Roboto_700Bold.ttf', 700, 'normal'],
  ['Montserrat', 'montserrat/400Regular/Montserrat_400Regular.ttf', 400, 'normal'],
  ['Montserrat', 'montserrat/700Bold/Montserrat_700Bold.ttf', 700, 'normal'],
];

async function loadFonts(): Promise<void> {
  const faces = FACES.map(([family, path, weight, style]) => {
    const face = new FontFace(family, `url(/fonts/${path})`, { weight: String(weight), style });
    (document.fonts as FontFaceSet & { add(face: FontFace): void }).add(face);
    return face;
  });
  await Promise.allSettled(faces.map((face) => face.load()));
}

function loadImage(src: string): Promise<HTMLImageElement> {
  if (src.startsWith('asset:')) {
    const asset = assets.find((a) => `asset:${a.id}` === src);
    if (!asset) return Promise.reject(new Error('unknown asset'));
    src = asset.url;
  }
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`could not load ${src.slice(0, 40)}`));
    img.src = src;
  });
}

const swatch = (fill: string) =>
  `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='400' height='300'><rect width='400' height='300' fill='${fill}'/><circle cx='200' cy='150' r='90' fill='white' opacity='0.6'/></svg>`)}`;

const assets: StudioAsset[] = [
  { id: 'sky', kind: 'image', mimeType: 'image/svg+xml', url: swatch('#5b8def'), width: 400, height: 300 },
  { id: 'sand', kind: 'image', mimeType: 'image/svg+xml', url: swatch('#e0b872'), width: 400, height: 300 },
];

const params = new URLSearchParams(location.search);
const parsed = parseDesignDocument(fixture);
if (!parsed.ok) throw new Error(`fixture invalid: ${JSON.stringify(parsed.issues)}`);

const changes: DesignDocument[] = [];
const newTemplates: DesignDocument[] = [];
const root = document.getElementById('editor');
if (!root) throw new Error('no #editor element');

const handle: EditorHandle = mountEditor(root, {
  document: parsed.document,
  readOnly: params.get('readOnly') === '1',
  features: { assetPicker: params.get('assets') !== '0', smartResize: params.get('resize') !== '0' },
  assets:
    params.get('assets') === '0'
      ? null
      : {
          list: async () => assets,
          upload: async (file) => {
            const asset: StudioAsset = {
              id: `up${assets.length}`,
              kind: 'image',
              mimeType: file.type,
              url: URL.createObjectURL(file),
            };
            assets.push(asset);
            return asset;
          },
        },
  loadImage,
  fonts: { ready: loadFonts().then(() => []), loadFamily: async () => false },
  onChange: (doc) => changes.push(doc),
  onResizeToNewTemplate: (doc) => newTemplates.push(doc),
});

Object.assign(window, { __editor: { handle, changes, newTemplates } });
