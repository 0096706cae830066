/**
 * Autosave of the open template. Each committed edit replaces the pending document (kept in memory
 * and in localStorage as a safety net); ~800 ms after edits settle it is PUT with
 * `If-Match: "<revision>"`. A network failure is retried with exponential backoff (1 s → 30 s) and
 * shown as offline; an expired token just parks the request in the API until the host renews it.
 * A 412 stops saving and asks the person (reload theirs / overwrite with mine): never silent.
 */
import type { DesignDocument } from '../../../src/engine/browser.ts';
import { type Api, ApiError, type Template } from '../api.ts';

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'saving' }
  | { kind: 'offline'; retryInMs: number }
  | { kind: 'conflict' }
  | { kind: 'error'; message: string };

export interface AutosaveHooks {
  onState(state: SaveState): void;
  onSaved(template: Template): void;
  /** The save was refused for good (403 on a shared template, 400 on an invalid document). */
  onRefused(error: ApiError): void;
}

const DEBOUNCE_MS = 800;
const BACKOFF_START_MS = 1000;
const BACKOFF_CAP_MS = 30_000;

const storageKey = (templateId: string) => `platen.unsaved.${templateId}`;

/** A draft the safety net kept, if it was made on top of `revision` (else it is stale). */
export function recoverDraft(templateId: string, revision: number): DesignDocument | null {
  try {
    const raw = localStorage.getItem(storageKey(templateId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as { revision: number; document: DesignDocument };
    return draft.revision === revision ? draft.document : null;
  } catch {
    return null;
  }
}

export class Autosaver {
  private pending: DesignDocument | null = null;
  private pendingName: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saving = false;
  private blocked = false;
  private attempt = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly api: Api,
    readonly templateId: string,
    public revision: number,
    private readonly hooks: AutosaveHooks,
  ) {}

  get dirty(): boolean {
    return this.pending !== null || this.pendingName !== null || this.saving;
  }

  change(document: DesignDocument): void {
    this.pending = document;
    this.remember(document);
    this.schedule(DEBOUNCE_MS);
  }

  rename(name: string, document: DesignDocument): void {
    this.pendingName = name;
    this.pending ??= document;
    this.schedule(0);
  }

  /** Resolves when nothing is waiting to be saved (before a render, which renders the saved draft). */
  idle(): Promise<void> {
    if (!this.dirty) return Promise.resolve();
    if (this.timer && !this.saving && !this.blocked) this.schedule(0);
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** After a conflict: adopt the server's copy (drops ours) — the caller reloads the editor. */
  acceptTheirs(template: Template): void {
    this.pending = null;
    this.pendingName = null;
    this.revision = template.revision;
    this.blocked = false;
    this.forget();
    this.hooks.onState({ kind: 'saved' });
    this.settle();
  }

  /**
   * Someone else's save was found by another guarded change (a roll back answered 412): stop saving
   * and ask the person, exactly as a 412 on a save does.
   */
  conflict(): void {
    this.blocked = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.hooks.onState({ kind: 'conflict' });
  }

  /** After a conflict: save ours on top of the server's current revision (asked for explicitly). */
  overwrite(currentRevision: number, document: DesignDocument): void {
    this.revision = currentRevision;
    this.blocked = false;
    this.pending = document;
    this.schedule(0);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.blocked = true;
  }

  private schedule(delay: number): void {
    if (this.blocked) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  private async flush(): Promise<void> {
    if (this.saving || this.blocked || (this.pending === null && this.pendingName === null)) return;
    const document = this.pending;
    const name = this.pendingName;
    if (!document) return;
    this.saving = true;
    this.hooks.onState({ kind: 'saving' });
    try {
      const saved = await this.api.saveTemplate(
        this.templateId,
        name === null ? { document } : { document, name },
        this.revision,
      );
      this.revision = saved.revision;
      this.attempt = 0;
      // Edits made while the request was in flight stay pending and are saved next.
      if (this.pending === document) {
        // A rename made meanwhile is saved next too, with this document (a save always carries
        // one): dropping it would leave nothing to send, and the rename would never be saved.
        if (this.pendingName === name) {
          this.pending = null;
          this.forget();
        }
      } else if (this.pending !== null) {
        // The edits still pending now sit on top of the revision just saved: the safety net must
        // say so, or a reload (which loads that revision) would take the draft for a stale one.
        this.remember(this.pending);
      }
      if (this.pendingName === name) this.pendingName = null;
      this.hooks.onSaved(saved);
    } catch (error) {
      this.saving = false;
      this.fail(error);
      return;
    }
    this.saving = false;
    if (this.pending !== null || this.pendingName !== null) this.schedule(DEBOUNCE_MS);
    else {
      this.hooks.onState({ kind: 'saved' });
      this.settle();
    }
  }

  private fail(error: unknown): void {
    if (error instanceof ApiError && error.status === 412) {
      this.blocked = true;
      this.hooks.onState({ kind: 'conflict' });
    } else if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
      this.blocked = true;
      this.hooks.onState({ kind: 'error', message: error.message });
      this.hooks.onRefused(error);
      this.settle();
    } else {
      // Network down, 5xx, 429: keep the edits and retry with backoff.
      const delay = Math.min(BACKOFF_CAP_MS, BACKOFF_START_MS * 2 ** this.attempt);
      this.attempt += 1;
      this.hooks.onState({ kind: 'offline', retryInMs: delay });
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, delay);
    }
  }

  private settle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private remember(document: DesignDocument): void {
    try {
      localStorage.setItem(
        storageKey(this.templateId),
        JSON.stringify({ revision: this.revision, document }),
      );
    } catch {
      // Storage full or blocked (third-party frame): memory still holds the edit.
    }
  }

  private forget(): void {
    try {
      localStorage.removeItem(storageKey(this.templateId));
    } catch {
      // see remember()
    }
  }
}
