/**
 * The editor screen: a header (back to the list, name, save state, downloads) over the editor,
 * which the shell mounts through the fixed contract (studio/src/editor/contract.ts). The shell owns
 * every network call: it loads the template, autosaves each committed edit, resolves conflicts
 * with the person, renders downloads, and publishes and rolls back from the history panel.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DesignDocument } from '../../../src/engine/browser.ts';
import { type Api, ApiError, type EmbedInfo, type Template } from '../api.ts';
import type { Bridge } from '../bridge.ts';
import type { EditorHandle } from '../editor/contract.ts';
import { mountEditor } from '../editor/index.ts';
import { fontsFor } from '../fonts.ts';
import { Autosaver, recoverDraft, type SaveState } from './autosave.ts';
import { ChecksButton } from './ChecksPanel.tsx';
import { ConflictDialog } from './ConflictDialog.tsx';
import { DraftChecks, type Finding } from './checks.ts';
import { DownloadMenu } from './DownloadMenu.tsx';
import { type HistoryActions, HistoryPanel } from './HistoryPanel.tsx';
import { imageLoader, videoLoader } from './images.ts';
import { SaveIndicator } from './SaveIndicator.tsx';

interface Props {
  api: Api;
  info: EmbedInfo;
  bridge: Bridge;
  templateId: string;
  brand: ComponentChildren;
  onReady(): void;
  onBack(): void;
  onOpen(templateId: string): void;
}

export function EditorScreen({ api, info, bridge, templateId, brand, onReady, onBack, onOpen }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<EditorHandle | null>(null);
  const saver = useRef<Autosaver | null>(null);
  const [template, setTemplate] = useState<Template | null>(null);
  const [name, setName] = useState('');
  const [state, setState] = useState<SaveState>({ kind: 'saved' });
  const [problem, setProblem] = useState<string | null>(null);
  const [readOnly, setReadOnly] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [findings, setFindings] = useState<Finding[] | null>(null);
  const checks = useRef<DraftChecks | null>(null);
  // The save state as of now, for the history actions that wait for autosave.
  const saveState = useRef<SaveState>({ kind: 'saved' });
  saveState.current = state;

  useEffect(() => {
    let cancelled = false;
    const loadImage = imageLoader(api);
    api.getTemplate(templateId).then(
      (loaded) => {
        if (cancelled || !host.current) return;
        const locked = loaded.shared;
        const draftChecks = new DraftChecks(api, loaded.id, (found) => {
          setFindings(found);
          editor.current?.setFindings(found);
        });
        checks.current = draftChecks;
        const autosaver = new Autosaver(api, loaded.id, loaded.revision, {
          onState: setState,
          onSaved: (saved) => {
            draftChecks.saved();
            bridge.emit({ type: 'saved', templateId: saved.id, revision: saved.revision });
          },
          onRefused: (error) => {
            if (error.code === 'FORBIDDEN') setReadOnly(true);
            bridge.emit({ type: 'error', code: error.code, message: error.message });
          },
        });
        saver.current = autosaver;
        // An edit the network lost last time (same base revision) is restored and saved.
        const draft = locked ? null : recoverDraft(loaded.id, loaded.revision);
        const document = draft ?? loaded.document;
        editor.current = mountEditor(host.current, {
          document,
          readOnly: locked,
          features: { assetPicker: info.assetPickerEnabled, smartResize: info.smartResizeEnabled },
          assets: info.assetPickerEnabled
            ? { list: () => api.listAssets(), upload: (f) => api.uploadAsset(f) }
            : null,
          loadImage,
          loadVideo: videoLoader(api),
          fonts: fontsFor(document, api),
          onChange: (doc: DesignDocument) => autosaver.change(doc),
          onResizeToNewTemplate: info.smartResizeEnabled
            ? (doc) => {
                const size = doc.pages[0] ? ` ${doc.pages[0].width}×${doc.pages[0].height}` : '';
                void api.createTemplate({ name: `${loaded.name}${size}`, document: doc }).then(
                  (created) => onOpen(created.id),
                  (error: unknown) => setProblem(String(error)),
                );
              }
            : undefined,
        });
        if (draft) autosaver.change(draft);
        else draftChecks.saved();
        setTemplate(loaded);
        setName(loaded.name);
        setReadOnly(locked);
        onReady();
      },
      (error: unknown) => {
        if (cancelled) return;
        const notFound = error instanceof ApiError && error.status === 404;
        setProblem(
          notFound ? 'This design does not exist or is not yours.' : 'The design could not be opened.',
        );
        if (error instanceof ApiError)
          bridge.emit({ type: 'error', code: error.code, message: error.message });
        onReady();
      },
    );
    return () => {
      cancelled = true;
      checks.current?.dispose();
      saver.current?.dispose();
      editor.current?.destroy();
      editor.current = null;
    };
  }, [api, templateId]);

  // Leaving with unsaved edits: the browser asks (and localStorage keeps them anyway).
  useEffect(() => {
    const guard = (event: BeforeUnloadEvent) => {
      if (saver.current?.dirty) event.preventDefault();
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, []);

  const rename = () => {
    const trimmed = name.trim();
    if (!template || readOnly || !trimmed || trimmed === template.name || !editor.current || !saver.current)
      return;
    setTemplate({ ...template, name: trimmed });
    saver.current.rename(trimmed, editor.current.getDocument());
  };

  const back = async () => {
    await saver.current?.idle();
    onBack();
  };

  async function resolve(choice: 'theirs' | 'mine') {
    const autosaver = saver.current;
    if (!autosaver || !editor.current) return;
    const current = await api.getTemplate(templateId);
    if (choice === 'theirs') {
      autosaver.acceptTheirs(current);
      editor.current.setDocument(current.document, readOnly);
      checks.current?.saved();
      setTemplate(current);
      setName(current.name);
    } else autosaver.overwrite(current.revision, editor.current.getDocument());
  }

  /** Autosave done, unless it is stopped (a conflict, a refusal): then the saved draft is what is there. */
  const settle = async () => {
    const stopped = saveState.current.kind === 'conflict' || saveState.current.kind === 'error';
    if (saver.current && !stopped) await saver.current.idle();
  };

  const history: HistoryActions = {
    settle,
    async publish(note) {
      await settle();
      const { version, created } = await api.publish(templateId, note);
      return created
        ? `Published version ${version.number}.`
        : `Nothing changed since version ${version.number}: no new version was made.`;
    },
    async rollback(number) {
      await settle();
      const autosaver = saver.current;
      if (!autosaver || !editor.current) throw new Error('The design is not open.');
      let saved: Template;
      try {
        saved = await api.rollback(templateId, number, autosaver.revision);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 412)) throw error;
        // Someone saved since this design was loaded: the conflict dialog asks, as for a save.
        autosaver.conflict();
        throw new Error(
          'This design was changed elsewhere since it was opened, so nothing was rolled back. Choose which copy to keep, then roll back again.',
        );
      }
      autosaver.acceptTheirs(saved);
      editor.current.setDocument(saved.document, readOnly);
      checks.current?.saved();
      setTemplate(saved);
      setName(saved.name);
      bridge.emit({ type: 'saved', templateId: saved.id, revision: saved.revision });
      return `The draft is now a copy of version ${number}.`;
    },
  };

  return (
    <div class="editor-screen">
      <header class="topbar">
        <button type="button" class="back" onClick={() => void back()} aria-label="Back to all designs">
          ← Designs
        </button>
        {brand}
        <label class="name-field">
          <span class="visually-hidden">Design name</span>
          <input
            value={name}
            maxLength={200}
            disabled={!template || readOnly}
            onInput={(e) => setName(e.currentTarget.value)}
            onBlur={rename}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.currentTarget.blur();
            }}
          />
        </label>
        {readOnly ? (
          <span class="badge" role="status">
            Read-only shared template
          </span>
        ) : (
          <SaveIndicator state={state} />
        )}
        <span class="spacer" />
        <ChecksButton
          findings={findings}
          onReveal={(pageId, elementId) => editor.current?.reveal(pageId, elementId)}
        />
        {template && (
          <button type="button" aria-haspopup="dialog" onClick={() => setHistoryOpen(true)}>
            History
          </button>
        )}
        {info.downloadsEnabled && template && (
          <DownloadMenu
            api={api}
            template={template}
            currentDocument={() => editor.current?.getDocument() ?? null}
            beforeRender={() => saver.current?.idle() ?? Promise.resolve()}
            onRendered={(result) => bridge.emit({ type: 'rendered', templateId: template.id, result })}
            onError={(code, message) => bridge.emit({ type: 'error', code, message })}
          />
        )}
      </header>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <div class="editor-host" ref={host} />
      {historyOpen && template && (
        <HistoryPanel
          api={api}
          templateId={template.id}
          canChange={!readOnly}
          draftHidden={readOnly && info.publishedOnly}
          actions={history}
          onClose={() => setHistoryOpen(false)}
        />
      )}
      {state.kind === 'conflict' && <ConflictDialog onChoose={(choice) => void resolve(choice)} />}
    </div>
  );
}
