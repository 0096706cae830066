/**
 * The autosave's safety net (localStorage) across a reload: a draft is restored only on top of the
 * revision it was made on, so the revision it records must follow each save that lands while edits
 * are still pending. The API here is an in-memory template store that answers as the service does
 * (If-Match on the revision, a new revision per save); the e2e test drives the real one.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBlankDocument, type DesignDocument } from '../../../src/engine/browser.ts';
import { type Api, ApiError, type Template } from '../api.ts';
import { Autosaver, recoverDraft } from './autosave.ts';

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/** One template on a server whose saves complete when the test releases them. */
function server(revision: number) {
  const stored = { revision, document: null as DesignDocument | null, name: null as string | null };
  const inFlight: (() => void)[] = [];
  const api = {
    saveTemplate(_id: string, body: { document: DesignDocument; name?: string }, ifMatch: number | null) {
      return new Promise<Template>((resolve, reject) => {
        inFlight.push(() => {
          if (ifMatch !== stored.revision) return reject(new ApiError(412, 'PRECONDITION_FAILED', 'stale'));
          stored.revision += 1;
          stored.document = body.document;
          if (body.name !== undefined) stored.name = body.name;
          resolve({ id: 't1', revision: stored.revision, document: body.document } as Template);
        });
      });
    },
  } as Pick<Api, 'saveTemplate'> as Api;
  const release = async () => {
    inFlight.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { api, stored, release, inFlight };
}

function withText(text: string): DesignDocument {
  const doc = createBlankDocument(100, 100);
  const page = doc.pages[0];
  if (page) page.name = text;
  return doc;
}

const hooks = { onState() {}, onSaved() {}, onRefused() {} };

describe('autosave', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('localStorage', new MemoryStorage());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('saves the last edit once edits settle, and forgets the draft once it is stored', async () => {
    const { api, stored, release } = server(1);
    const saver = new Autosaver(api, 't1', 1, hooks);
    saver.change(withText('a'));
    saver.change(withText('ab'));
    expect(recoverDraft('t1', 1)?.pages[0]?.name).toBe('ab');
    await vi.advanceTimersByTimeAsync(800);
    await release();
    expect(stored).toMatchObject({ revision: 2, document: { pages: [{ name: 'ab' }] } });
    expect(saver.dirty).toBe(false);
    expect(recoverDraft('t1', 2)).toBeNull();
  });

  it('keeps an edit made while a save is in flight restorable after a reload on the saved revision', async () => {
    const { api, stored, release, inFlight } = server(1);
    const saver = new Autosaver(api, 't1', 1, hooks);
    saver.change(withText('first'));
    await vi.advanceTimersByTimeAsync(800);
    expect(inFlight).toHaveLength(1);
    // The person edits again before the first save's answer arrives...
    saver.change(withText('second'));
    await release();
    expect(stored.revision).toBe(2);
    // ...and the page is reloaded before the second save goes out: the reload loads revision 2,
    // and the draft holding 'second' must be taken as made on top of it.
    saver.dispose();
    expect(recoverDraft('t1', 2)?.pages[0]?.name).toBe('second');
    expect(recoverDraft('t1', 1)).toBeNull();
  });

  it('saves a rename made while a save is in flight, and then settles', async () => {
    const { api, stored, release, inFlight } = server(1);
    const saver = new Autosaver(api, 't1', 1, hooks);
    const document = withText('first');
    saver.change(document);
    await vi.advanceTimersByTimeAsync(800);
    expect(inFlight).toHaveLength(1);
    saver.rename('New name', document);
    await release();
    await vi.advanceTimersByTimeAsync(800);
    expect(inFlight).toHaveLength(1);
    await release();
    expect(stored).toMatchObject({ revision: 3, name: 'New name' });
    expect(saver.dirty).toBe(false);
    await expect(saver.idle()).resolves.toBeUndefined();
  });
});
