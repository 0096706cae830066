/**
 * Download through the render route (only shown with `downloadsEnabled`): PNG or JPEG of the page
 * being edited, or a PDF of all pages. The pending autosave is flushed first (the route renders the
 * saved draft), the credits charged are shown, and the file is downloaded from its same-origin URL.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type DesignDocument, pageElements } from '../../../src/engine/browser.ts';
import { type Api, ApiError, type RenderResponse, type RenderResult, type Template } from '../api.ts';
import { ownPath } from './images.ts';

type Format = 'png' | 'jpeg' | 'pdf' | 'mp4' | 'gif';

interface Props {
  api: Api;
  template: Template;
  currentDocument(): DesignDocument | null;
  beforeRender(): Promise<void>;
  onRendered(result: RenderResponse): void;
  onError(code: string, message: string): void;
}

const CHOICES: { format: Format; label: string }[] = [
  { format: 'png', label: 'PNG image (this page)' },
  { format: 'jpeg', label: 'JPEG image (this page)' },
  { format: 'pdf', label: 'PDF document (all pages)' },
];

/** Offered when the page moves: a video of it, as the render route makes it (one credit a file). */
const MOTION_CHOICES: { format: Format; label: string }[] = [
  { format: 'mp4', label: 'MP4 video (this page)' },
  { format: 'gif', label: 'GIF animation (this page)' },
];

/** Whether the page being edited has anything that moves: animations, keyframes or a video clip. */
export function pageMoves(doc: DesignDocument | null): boolean {
  const page = doc?.pages.find((p) => p.id === doc.activePageId);
  return (
    !!page &&
    pageElements(page).some(
      (el) => el.type === 'video' || (el.animations?.length ?? 0) > 0 || (el.keyframes?.length ?? 0) > 0,
    )
  );
}

export function creditsLine(files: readonly RenderResult[]): string {
  const charged = files.reduce((sum, file) => sum + file.credits.charged, 0);
  const left = files[files.length - 1]?.credits.balanceAfter ?? 0;
  return `${charged} ${charged === 1 ? 'credit' : 'credits'} charged, ${left} left`;
}

function download(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = ownPath(url) ?? url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

export function DownloadMenu({ api, template, currentDocument, beforeRender, onRendered, onError }: Props) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const menu = useRef<HTMLDivElement>(null);

  // Focus moves into the menu when it opens (the autofocus attribute is ignored in a cross-origin frame).
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [open]);

  const onMenuKey = (event: KeyboardEvent) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('button') ?? []);
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') setOpen(false);
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    }
  };

  async function render(format: Format) {
    setOpen(false);
    setBusy(true);
    setStatus('Preparing your file…');
    try {
      await beforeRender();
      const doc = currentDocument();
      const body =
        format === 'pdf'
          ? { format, allPages: true }
          : { format, ...(doc ? { pageId: doc.activePageId } : {}) };
      const result = await api.render(template.id, body);
      const files = 'pages' in result ? result.pages : [result];
      const base = template.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'design';
      for (const file of files)
        if (file.url) download(file.url, `${base}.${format === 'jpeg' ? 'jpg' : format}`);
      setStatus(`Downloaded. ${creditsLine(files)}.`);
      onRendered(result);
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'UNAVAILABLE';
      const message =
        code === 'INSUFFICIENT_CREDITS'
          ? 'Not enough credits to download.'
          : `The download failed: ${error instanceof Error ? error.message : 'unknown error'}`;
      setStatus(message);
      onError(code, message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="download">
      <span class="download-status" role="status" aria-live="polite">
        {status}
      </span>
      <button
        type="button"
        class="primary"
        aria-haspopup="menu"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls="download-menu"
        disabled={busy}
        onClick={() => setOpen(!open)}
      >
        {busy ? 'Rendering…' : 'Download'}
      </button>
      {open && (
        <div
          id="download-menu"
          class="menu"
          role="menu"
          aria-label="Download format"
          ref={menu}
          onKeyDown={onMenuKey}
        >
          {[...CHOICES, ...(pageMoves(currentDocument()) ? MOTION_CHOICES : [])].map((choice) => (
            <button
              key={choice.format}
              type="button"
              role="menuitem"
              onClick={() => void render(choice.format)}
            >
              {choice.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
