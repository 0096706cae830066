/**
 * A temporary stand-in for the canvas editor (studio/src/editor, written alongside): it draws the
 * active page with the engine, read-only, plus one "Add text" action so the shell's autosave path
 * can be exercised. The shell uses the real `mountEditor` as soon as studio/src/editor/index.ts
 * exists (see editor-loader.ts); this file then only serves as a fallback.
 */
import {
  bundledFontCatalog,
  createBrowserDrawHost,
  createBrowserMeasurer,
  type DesignDocument,
  drawPage,
  layoutPage,
  pageImageSources,
  parseDesignDocument,
} from '../../../src/engine/browser.ts';
import type { EditorHandle, EditorOptions, MountEditor } from '../editor/contract.ts';

export const mountStandInEditor: MountEditor = (root: HTMLElement, options: EditorOptions): EditorHandle => {
  let doc = options.document;
  let readOnly = options.readOnly;
  const wrap = document.createElement('div');
  wrap.className = 'standin';
  const bar = document.createElement('div');
  bar.className = 'standin-bar';
  const add = document.createElement('button');
  add.type = 'button';
  add.textContent = 'Add text';
  add.setAttribute('aria-label', 'Add a text element');
  bar.append(add);
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', 'Page preview');
  wrap.append(bar, canvas);
  root.append(wrap);

  async function draw(): Promise<void> {
    await options.fontsReady;
    const page = doc.pages.find((p) => p.id === doc.activePageId) ?? doc.pages[0];
    if (!page) return;
    const loaded = new Map<string, CanvasImageSource>();
    const sizes = new Map<string, { width: number; height: number }>();
    await Promise.all(
      pageImageSources(page).map(async (src) => {
        const image = await options.loadImage(src).catch(() => null);
        if (image) {
          loaded.set(src, image);
          sizes.set(src, { width: image.width, height: image.height });
        }
      }),
    );
    const fit = Math.min(1, (root.clientWidth - 32) / page.width, (root.clientHeight - 80) / page.height);
    const zoom = Math.max(0.05, fit);
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(page.width * zoom * dpr);
    canvas.height = Math.round(page.height * zoom * dpr);
    canvas.style.width = `${Math.round(page.width * zoom)}px`;
    canvas.style.height = `${Math.round(page.height * zoom)}px`;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const env = {
      measurer: createBrowserMeasurer(),
      fonts: bundledFontCatalog(),
      images: sizes,
      deviceScale: zoom * dpr,
    };
    const result = layoutPage(page, env);
    if (!result.ok) return;
    ctx.setTransform(zoom * dpr, 0, 0, zoom * dpr, 0, 0);
    try {
      drawPage(ctx, result.layout, createBrowserDrawHost(loaded));
    } catch {
      // An image that failed to load: the real editor draws a placeholder.
    }
  }

  add.addEventListener('click', () => {
    if (readOnly) return;
    const page = doc.pages.find((p) => p.id === doc.activePageId) ?? doc.pages[0];
    if (!page) return;
    const text = {
      id: `text_${Date.now().toString(36)}`,
      type: 'text',
      x: page.width * 0.1,
      y: page.height * 0.1 + page.elements.length * 60,
      width: page.width * 0.8,
      height: 80,
      text: 'Your text here',
      fontSize: Math.round(page.width / 18),
      color: '#111827',
    };
    const next = {
      ...doc,
      pages: doc.pages.map((p) => (p === page ? { ...p, elements: [...p.elements, text] } : p)),
    };
    const parsed = parseDesignDocument(next);
    if (!parsed.ok) return;
    doc = parsed.document;
    void draw();
    options.onChange(doc);
  });

  add.disabled = readOnly;
  void draw();
  return {
    getDocument: () => doc,
    setDocument(next: DesignDocument, nextReadOnly?: boolean) {
      doc = next;
      if (nextReadOnly !== undefined) readOnly = nextReadOnly;
      add.disabled = readOnly;
      void draw();
    },
    destroy: () => wrap.remove(),
  };
};
