/**
 * Template thumbnails: after every create and save (`templates.onChange`, whichever entry point
 * made it) the active page of the latest draft, its variables at their defaults as the studio and
 * the preview show them, is rendered small (fitted into a `box`-pixel square,
 * WebP) in the background, stored under `renders/…/thumb_<templateId>.webp` and recorded with
 * `store.thumbnails.set`, which the template record shows as `thumbnailUrl`. A template whose latest
 * draft never got a thumbnail attempt (the instance that took the save stopped first) is queued
 * again by `catchUp`, which every instance runs periodically.
 *
 * Guarantees: a thumbnail is never charged and leaves no render record; the listener returns at
 * once and never throws, so a save never waits for or fails by its thumbnail (failures are logged
 * and leave the previous thumbnail). Saves coalesce per template (queue.ts): one render in flight
 * and one waiting at most, the waiting one rendering whatever draft is latest when it starts. The
 * work is bounded (pending templates, concurrency, and no start while paid renders wait for a render
 * process), and renders go through the same killable, time-bounded render pool as paid ones. A
 * replaced thumbnail's file is deleted; so is a file that lost the race to a newer revision. A
 * deleted template's file is removed by `removed()`, or else by the orphan-file sweep (the sweep
 * keeps only files `templates.thumbnail_key` references).
 */
import type { Logger } from 'pino';
import { randomToken } from '../core/ids.ts';
import {
  applyModifications,
  type DesignDocument,
  type Element,
  mapElements,
  type Page,
} from '../design/index.ts';
import { type RenderedFile, type RenderJob, renderLimits } from '../engine/index.ts';
import type { FileStore } from '../files/index.ts';
import type { JobInputLoader } from '../renders/index.ts';
import type { Store } from '../store/index.ts';
import type { TemplateWithDocument } from '../store/templates.ts';
import { CoalescingQueue } from './queue.ts';

export interface ThumbnailServiceOptions {
  store: Store;
  files: FileStore;
  inputs: Pick<JobInputLoader, 'load'>;
  /** The render pool's `render` (tests inject their own). */
  render(job: RenderJob): Promise<RenderedFile[]>;
  logger: Logger;
  allowPrivateUrls: boolean;
  /** True while paid renders wait for a render process: thumbnails hold back. */
  busy?: () => boolean;
  /** Longest side of a thumbnail in pixels (default 320); a smaller page is not enlarged. */
  box?: number;
  /** Wait after a first save before rendering, so a burst of saves renders once (default 400 ms). */
  debounceMs?: number;
  /** Thumbnail renders at once (default 1). */
  concurrency?: number;
  /** Templates waiting for a thumbnail; beyond, new ones are dropped until a later save (default 1000). */
  maxPending?: number;
}

export interface ThumbnailStats {
  pending: number;
  running: number;
  /** Thumbnail renders attempted. */
  rendered: number;
  failed: number;
  /** Saves folded into a thumbnail render already waiting. */
  coalesced: number;
  dropped: number;
}

const FORMAT = 'webp';
const QUALITY = 80;
const DROP_WARNING_MS = 60_000;
/** The catch-up sweep leaves a save this long to the instance that took it. */
const CATCH_UP_GRACE_MS = 30_000;
/** Templates the catch-up sweep queues at most per run. */
const CATCH_UP_BATCH = 20;

/** The scale that fits a `width`×`height` page into a `box`-pixel square, never enlarging it. */
export function thumbnailScale(width: number, height: number, box = 320): number {
  const fit = box / Math.max(width, height, 1);
  return Math.min(1, Math.max(renderLimits.minScale, fit));
}

/** The pixel size of the thumbnail of a `width`×`height` page (as the raster backend rounds). */
export function thumbnailSize(width: number, height: number, box = 320): { width: number; height: number } {
  const scale = thumbnailScale(width, height, box);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * The document as the studio and a render with no modifications show it: placeholders filled with
 * the variables' defaults, by the one function every render applies (`applyModifications` with
 * `{}`). A default its property refuses (a render would answer 400) leaves the document as written.
 */
export function shownDocument(document: DesignDocument): DesignDocument {
  const applied = applyModifications(document, {});
  return withoutClips(applied.ok ? applied.document : document);
}

/**
 * Video clips as dark placeholders: a thumbnail is drawn on every save, uncharged, so it never
 * decodes a clip (a hostile clip could make each save cost a decoder's full deadline).
 */
function withoutClips(document: DesignDocument): DesignDocument {
  const pages = document.pages.map((page) => ({
    ...page,
    elements: mapElements(page.elements, (element): Element => {
      if (element.type !== 'video') return element;
      const { src: _src, fit: _fit, trimStartMs: _trim, muted: _muted, loop: _loop, ...common } = element;
      return { ...common, type: 'rect', fill: '#1d1d35', stroke: null, strokeWidth: 0 };
    }),
  }));
  return { ...document, pages };
}

function activePage(document: DesignDocument): Page | undefined {
  return document.pages.find((page) => page.id === document.activePageId) ?? document.pages[0];
}

export class ThumbnailService {
  private readonly queue: CoalescingQueue;
  private readonly box: number;
  private rendered = 0;
  private failed = 0;
  private lastDropWarning = 0;
  private droppedSinceWarning = 0;

  constructor(private readonly options: ThumbnailServiceOptions) {
    this.box = options.box ?? 320;
    this.queue = new CoalescingQueue({
      run: (templateId) => this.renderLatest(templateId),
      debounceMs: options.debounceMs ?? 400,
      concurrency: options.concurrency ?? 1,
      maxPending: options.maxPending ?? 1000,
      busy: options.busy,
      onDrop: () => {
        // At most one warning a minute, with how many were skipped, not one per save.
        this.droppedSinceWarning++;
        if (Date.now() - this.lastDropWarning < DROP_WARNING_MS) return;
        options.logger.warn(
          { dropped: this.droppedSinceWarning },
          'thumbnail queue full: thumbnails skipped until a later save',
        );
        this.lastDropWarning = Date.now();
        this.droppedSinceWarning = 0;
      },
      onError: (templateId, err) => {
        this.failed++;
        options.logger.warn({ err, templateId }, 'thumbnail failed; the previous thumbnail stays');
      },
    });
  }

  /** The `templates.onChange` listener: queues a thumbnail and returns at once; never throws. */
  templateChanged(template: Pick<TemplateWithDocument, 'id'>): void {
    try {
      this.queue.push(template.id);
    } catch (err) {
      this.options.logger.warn({ err, templateId: template.id }, 'could not queue a thumbnail');
    }
  }

  /**
   * Call after a template was deleted, with the thumbnail key it had: forgets its waiting render
   * and deletes the file (a render in flight finds the template gone and deletes its own file).
   * Without this call the hourly orphan-file sweep removes the file (once it is an hour old).
   */
  async removed(templateId: string, thumbnailKey: string | null): Promise<void> {
    this.queue.forget(templateId);
    if (thumbnailKey) await this.deleteFile(thumbnailKey, templateId);
  }

  stats(): ThumbnailStats {
    const queue = this.queue.stats();
    return {
      pending: queue.pending,
      running: queue.running,
      rendered: this.rendered,
      failed: this.failed,
      coalesced: queue.coalesced,
      dropped: queue.dropped,
    };
  }

  /** Resolves once no thumbnail waits or renders (tests). */
  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
  }

  /** Drops waiting thumbnails and waits for the ones rendering (bounded by the pool's deadline). */
  close(): Promise<void> {
    return this.queue.close();
  }

  /**
   * Queues the templates whose latest draft no instance has attempted a thumbnail for, saved more
   * than `graceMs` ago (the instance that took the save had its chance, but may have stopped before
   * rendering). Several instances may queue the same template; the revision check keeps the newest.
   */
  async catchUp(options: { graceMs?: number; limit?: number; now?: Date } = {}): Promise<number> {
    const now = options.now ?? new Date();
    const savedBefore = new Date(now.getTime() - (options.graceMs ?? CATCH_UP_GRACE_MS));
    const due = await this.options.store.thumbnails.due(savedBefore, options.limit ?? CATCH_UP_BATCH);
    let queued = 0;
    for (const template of due) if (this.queue.push(template.id) === 'queued') queued++;
    if (queued) this.options.logger.info({ queued }, 'thumbnails never rendered queued again');
    return queued;
  }

  /** Renders the template's latest draft and points the record at it. */
  private async renderLatest(templateId: string): Promise<void> {
    const { store } = this.options;
    const template = await store.templates.get(templateId);
    if (!template) return; // deleted meanwhile
    const page = activePage(template.document);
    try {
      if (page) return await this.renderPage(template, page);
    } catch (error) {
      await store.thumbnails.markAttempted(template.id, template.revision).catch(() => {});
      throw error;
    }
    await store.thumbnails.markAttempted(template.id, template.revision);
  }

  private async renderPage(template: TemplateWithDocument, page: Page): Promise<void> {
    const { store, files, inputs, logger } = this.options;
    this.rendered++;
    const started = performance.now();
    const document = shownDocument(template.document);
    // A thumbnail is a still of one page: no soundtrack, no other page's clips.
    const loaded = await inputs.load(template.workspaceId, document, undefined, {
      pageIds: [page.id],
      format: FORMAT,
    });
    const [file] = await this.options.render({
      document,
      pageIds: [page.id],
      format: FORMAT,
      scale: thumbnailScale(page.width, page.height, this.box),
      quality: QUALITY,
      workspaceId: template.workspaceId,
      assets: loaded.assets,
      fonts: loaded.fonts,
      allowPrivateUrls: this.options.allowPrivateUrls,
    });
    if (!file) throw new Error('the renderer returned no file');
    const key = `renders/${template.workspaceId}/${randomToken(18)}/thumb_${template.id}.${FORMAT}`;
    await files.put(key, file.bytes, file.mimeType);
    const outcome = await store.thumbnails
      .set(template.id, key, template.revision)
      .catch(async (error: unknown) => {
        await this.deleteFile(key, template.id);
        throw error;
      });
    // Refused: a newer revision was saved (its thumbnail follows) or the template is gone.
    if (!outcome) await this.deleteFile(key, template.id);
    else if (outcome.replaced && outcome.replaced !== key)
      await this.deleteFile(outcome.replaced, template.id);
    logger.debug(
      {
        templateId: template.id,
        revision: template.revision,
        ms: Math.round(performance.now() - started),
        kept: !!outcome,
      },
      'thumbnail rendered',
    );
  }

  private async deleteFile(key: string, templateId: string): Promise<void> {
    // The key is a capability: logs name the template, never the key.
    await this.options.files.delete(key).catch((err: unknown) => {
      this.options.logger.warn({ err, templateId }, 'could not delete a thumbnail file');
    });
  }
}
