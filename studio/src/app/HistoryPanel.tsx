/**
 * The editor's history panel (docs/versions.md): the template's published versions, newest first;
 * publish the draft with a note; roll the draft back to a version (asked first); compare two versions
 * or a version and the draft (the change list and the picture of what changed). The panel only asks:
 * EditorScreen owns the network calls that touch the draft, so autosave settles before each of them
 * and the editor reloads after a roll back.
 *
 * `canChange` false (a shared template read-only to this end-user, or an embed that shows published
 * templates only) leaves the list and compare; `draftHidden` also takes the draft out of compare.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../api.ts';
import {
  describeChange,
  type Side,
  sideName,
  type TemplateDiff,
  type TemplateVersion,
} from '../history/changes.ts';

export interface HistoryActions {
  publish(note: string | null): Promise<string>;
  rollback(version: number): Promise<string>;
  /** Waits for autosave, so a comparison with the draft sees the latest edits. */
  settle(): Promise<void>;
}

interface Props {
  api: Api;
  templateId: string;
  canChange: boolean;
  draftHidden: boolean;
  actions: HistoryActions;
  onClose(): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function HistoryPanel({ api, templateId, canChange, draftHidden, actions, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [versions, setVersions] = useState<TemplateVersion[] | null>(null);
  const [tick, setTick] = useState(0);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ text: string; bad: boolean } | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [from, setFrom] = useState<Side>('draft');
  const [to, setTo] = useState<Side>('draft');

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  useEffect(() => {
    let live = true;
    api.listVersions(templateId).then(
      (items) => {
        if (!live) return;
        setVersions(items);
        // The default pair: what changed since the latest version (or between the last two).
        const [latest, previous] = items;
        if (latest && from === to) {
          setFrom(draftHidden ? (previous?.number ?? latest.number) : latest.number);
          setTo(draftHidden ? latest.number : 'draft');
        }
      },
      (error: unknown) => live && setNotice({ text: messageOf(error), bad: true }),
    );
    return () => {
      live = false;
    };
  }, [api, templateId, tick]);

  async function run(task: () => Promise<string>): Promise<void> {
    setBusy(true);
    setNotice(null);
    try {
      setNotice({ text: await task(), bad: false });
    } catch (error) {
      setNotice({ text: messageOf(error), bad: true });
    } finally {
      setBusy(false);
      setTick((t) => t + 1);
    }
  }

  const publish = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const text = await actions.publish(note.trim() || null);
      setNote('');
      return text;
    });
  };
  const rollback = (n: number) => {
    setConfirming(null);
    void run(() => actions.rollback(n));
  };

  const sides: Side[] = [
    ...(draftHidden ? [] : (['draft'] as const)),
    ...(versions ?? []).map((v) => v.number),
  ];
  return (
    <dialog
      ref={dialog}
      class="dialog history"
      aria-labelledby="history-title"
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div class="history-head">
        <h2 id="history-title">History</h2>
        <button type="button" onClick={onClose} aria-label="Close the history">
          ✕
        </button>
      </div>
      {canChange && (
        <form class="history-publish" onSubmit={publish}>
          <label class="history-field history-grow">
            <span>Note (optional)</span>
            <input
              class="history-grow"
              value={note}
              maxLength={500}
              onInput={(e) => setNote(e.currentTarget.value)}
              placeholder="What changed"
            />
          </label>
          <button type="submit" class="primary" disabled={busy}>
            Publish
          </button>
        </form>
      )}
      {notice && (
        <p
          class={notice.bad ? 'history-notice bad' : 'history-notice'}
          role={notice.bad ? 'alert' : 'status'}
        >
          {notice.text}
        </p>
      )}
      {versions === null ? (
        <p role="status">Loading versions…</p>
      ) : versions.length === 0 ? (
        <p class="history-empty">
          Nothing published yet.{canChange ? ' Publish to freeze this design as version 1.' : ''}
        </p>
      ) : (
        <ol class="history-list" aria-label="Versions">
          {versions.map((v) => (
            <li key={v.number}>
              <div>
                <strong>Version {v.number}</strong>
                {v.note ? ` · ${v.note}` : ''}
                <div class="history-meta">
                  {v.publishedBy} · {new Date(v.createdAt).toLocaleString()}
                </div>
              </div>
              <div class="history-row-actions">
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Compare version ${v.number}${draftHidden ? ' with the one before' : ' with the draft'}`}
                  onClick={() => {
                    const pair: [Side, Side] = draftHidden
                      ? [Math.max(1, v.number - 1), v.number]
                      : [v.number, 'draft'];
                    setFrom(pair[0]);
                    setTo(pair[1]);
                  }}
                >
                  Compare
                </button>
                {canChange &&
                  (confirming === v.number ? (
                    <span class="history-confirm">
                      Replace the draft with version {v.number}?
                      <button
                        type="button"
                        class="primary"
                        onClick={() => rollback(v.number)}
                        aria-label={`Yes, roll back to version ${v.number}`}
                      >
                        Roll back
                      </button>
                      <button type="button" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={`Roll back to version ${v.number}`}
                      onClick={() => setConfirming(v.number)}
                    >
                      Roll back
                    </button>
                  ))}
              </div>
            </li>
          ))}
        </ol>
      )}
      {versions && versions.length > 0 && (
        <Compare
          api={api}
          templateId={templateId}
          sides={sides}
          from={from}
          to={to}
          settle={actions.settle}
          refresh={tick}
        >
          <span class="history-field">
            <label for="history-from">From</label>
            <select
              id="history-from"
              value={String(from)}
              onChange={(e) => setFrom(sideOf(e.currentTarget.value))}
            >
              {sides.map((side) => (
                <option key={side} value={String(side)}>
                  {side === 'draft' ? 'The draft' : `Version ${side}`}
                </option>
              ))}
            </select>
          </span>
          <span class="history-field">
            <label for="history-to">To</label>
            <select id="history-to" value={String(to)} onChange={(e) => setTo(sideOf(e.currentTarget.value))}>
              {sides.map((side) => (
                <option key={side} value={String(side)}>
                  {side === 'draft' ? 'The draft' : `Version ${side}`}
                </option>
              ))}
            </select>
          </span>
        </Compare>
      )}
    </dialog>
  );
}

const sideOf = (value: string): Side => (value === 'draft' ? 'draft' : Number(value));

/** The comparison of `from` and `to`, drawn again whenever either changes. */
function Compare(props: {
  api: Api;
  templateId: string;
  sides: Side[];
  from: Side;
  to: Side;
  settle(): Promise<void>;
  children: ComponentChildren;
  /** Changes after a publish or a roll back: the draft side may differ now. */
  refresh: number;
}) {
  const { api, templateId, from, to } = props;
  const [diff, setDiff] = useState<TemplateDiff | null>(null);
  const [picture, setPicture] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (from === to) {
      setDiff(null);
      setPicture(null);
      return;
    }
    let live = true;
    let url: string | null = null;
    setLoading(true);
    setProblem(null);
    (async () => {
      if (from === 'draft' || to === 'draft') await props.settle();
      const [changes, png] = await Promise.all([
        api.diff(templateId, from, to),
        api.diffImage(templateId, from, to),
      ]);
      if (!live) return;
      url = URL.createObjectURL(png);
      setDiff(changes);
      setPicture(url);
    })().then(
      () => live && setLoading(false),
      (error: unknown) => {
        if (!live) return;
        setLoading(false);
        setProblem(messageOf(error));
      },
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, templateId, from, to, props.refresh]);

  const title = `${sideName(from)} to ${sideName(to)}`;
  return (
    <section class="history-compare" aria-labelledby="compare-title">
      <h3 id="compare-title">Compare</h3>
      <div class="history-sides">{props.children}</div>
      {from === to && <p class="history-empty">Choose two different sides to compare.</p>}
      {loading && <p role="status">Comparing…</p>}
      {problem && (
        <p class="history-notice bad" role="alert">
          {problem}
        </p>
      )}
      {diff && !loading && from !== to && (
        <>
          <h4>Changes from {title}</h4>
          {diff.changes.length === 0 ? (
            <p class="history-empty">No changes.</p>
          ) : (
            <ul class="history-changes" aria-label="Changes">
              {diff.changes.map((change, index) => (
                <li key={`${index}:${change.path}`}>{describeChange(change)}</li>
              ))}
            </ul>
          )}
          {diff.truncated && <p class="history-empty">Only the first 500 changes are listed.</p>}
          {picture && (
            <img
              class="history-picture"
              src={picture}
              alt={`What changed on the page from ${title}, in magenta`}
            />
          )}
        </>
      )}
    </section>
  );
}
