/**
 * Refreshes docs/design-document.md from its examples (scripts/design-doc-examples.ts): copies each
 * docs/design-document/<name>.json into the page's marked block, and draws it with the real engine
 * (renderInProcess, bundled fonts, as the goldens do) into docs/design-document/<name>.png, at most
 * 480 px wide. An example with `<name>.modifications.json` is also drawn with them applied, as
 * `<name>.modified.png`. Exits 1 when any example fails to parse or render (the others still draw).
 *
 *   node --import tsx scripts/design-doc-pictures.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import {
  applyModifications,
  type DesignDocument,
  pageDurationMs,
  pageElements,
  parseDesignDocument,
} from '../src/design/index.ts';
import { renderInProcess } from '../src/engine/render.ts';
import {
  DOC_PATH,
  type DocExample,
  EXAMPLES_DIR,
  exampleFiles,
  listExamples,
  ROOT,
  withExamples,
} from './design-doc-examples.ts';

/** Pictures are small: the page shows them beside the JSON. */
const MAX_PICTURE_WIDTH = 480;

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function parsedDocument(file: string): DesignDocument {
  const parsed = parseDesignDocument(readJson(file));
  if (!parsed.ok) throw new Error(`is not a valid design document: ${JSON.stringify(parsed.issues)}`);
  return parsed.document;
}

async function drawPicture(document: DesignDocument, out: string): Promise<void> {
  const bytes = await drawAt(document, undefined, 1);
  writeFileSync(out, bytes);
  const { width, height } = await sharp(bytes).metadata();
  console.log(`  ${relative(ROOT, out)} (${width}×${height})`);
}

/** The active page as a PNG at `timeMs` (undefined: the still default), `shrink` times the picture size. */
async function drawAt(
  document: DesignDocument,
  timeMs: number | undefined,
  shrink: number,
): Promise<Uint8Array> {
  const page = document.pages.find((p) => p.id === document.activePageId) ?? document.pages[0];
  if (!page) throw new Error('has no page');
  const [file] = await renderInProcess({
    document,
    pageIds: [page.id],
    format: 'png',
    scale: Math.min(1, MAX_PICTURE_WIDTH / page.width) * shrink,
    workspaceId: 'ws_docs',
    assets: {},
    fonts: [],
    ...(timeMs === undefined ? {} : { timeMs }),
  });
  if (!file) throw new Error('rendered no file');
  return file.bytes;
}

/** Frames of an animated page across its duration, side by side with a gap: `<name>.frames.png`. */
async function drawFilmstrip(document: DesignDocument, out: string): Promise<void> {
  const page = document.pages.find((p) => p.id === document.activePageId) ?? document.pages[0];
  if (!page || !pageElements(page).some((el) => el.animations?.length || el.keyframes?.length)) return;
  const duration = pageDurationMs(page);
  const times = [0, 0.15, 0.3, 0.5, 0.75, 1].map((share) => Math.round(duration * share));
  const frames = await Promise.all(times.map((t) => drawAt(document, Math.min(t, duration - 1), 0.5)));
  const first = await sharp(Buffer.from(frames[0] as Uint8Array)).metadata();
  const width = first.width ?? 1;
  const height = first.height ?? 1;
  const gap = 6;
  const strip = sharp({
    create: {
      width: (width + gap) * 3 - gap,
      height: (height + gap) * 2 - gap,
      channels: 4,
      background: '#ffffff',
    },
  }).composite(
    frames.map((frame, i) => ({
      input: Buffer.from(frame),
      left: (i % 3) * (width + gap),
      top: Math.floor(i / 3) * (height + gap),
    })),
  );
  writeFileSync(out, await strip.png().toBuffer());
  console.log(`  ${relative(ROOT, out)} (frames at ${times.join(', ')} ms)`);
}

/** As a render does: modifications applied even when there are none, so variables fill placeholders. */
function modified(document: DesignDocument, modifications: Record<string, string>): DesignDocument {
  const result = applyModifications(document, modifications);
  if (!result.ok) throw new Error(`modifications refused: ${JSON.stringify(result.issues)}`);
  return result.document;
}

async function drawExample(example: DocExample): Promise<void> {
  const document = parsedDocument(example.documentFile);
  await drawPicture(modified(document, {}), join(EXAMPLES_DIR, `${example.name}.png`));
  await drawFilmstrip(modified(document, {}), join(EXAMPLES_DIR, `${example.name}.frames.png`));
  if (!example.modificationsFile) return;
  const modifications = readJson(example.modificationsFile) as Record<string, string>;
  await drawPicture(modified(document, modifications), join(EXAMPLES_DIR, `${example.name}.modified.png`));
}

writeFileSync(DOC_PATH, withExamples(readFileSync(DOC_PATH, 'utf8'), exampleFiles()));
console.log(`${relative(ROOT, DOC_PATH)}: examples copied from ${relative(ROOT, EXAMPLES_DIR)}/`);
let failed = 0;
for (const example of listExamples()) {
  try {
    await drawExample(example);
  } catch (error) {
    failed++;
    console.error(`  ${example.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
