/**
 * The editor's layout: toolbar on top; layers, pages, variables and (when enabled) smart resize
 * in tabs on the left; the page in the middle with the motion timeline under it; properties on
 * the right; a status line below. Keyboard shortcuts are handled here for the whole editor,
 * Space (play/pause) and the preview's own keys included.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useEditorState, usePlayhead, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import { LayersPanel } from './LayersPanel.tsx';
import { PagesPanel } from './PagesPanel.tsx';
import { PropertiesPanel } from './PropertiesPanel.tsx';
import { spaceTogglesPlay } from './playhead.ts';
import { ResizePanel } from './ResizePanel.tsx';
import type { PageRenderer } from './renderer.ts';
import { Stage } from './Stage.tsx';
import { type Command, commandFor } from './shortcuts.ts';
import { TimelinePanel } from './TimelinePanel.tsx';
import { Toolbar } from './Toolbar.tsx';
import { locate } from './tree-ops.ts';
import { VariablesPanel } from './VariablesPanel.tsx';
import { fitZoom, stepZoom } from './zoom.ts';

type Tab = 'layers' | 'pages' | 'variables' | 'resize';

const isField = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

const focusTarget = (el: HTMLElement | null) =>
  el && {
    tagName: el.tagName,
    type: el instanceof HTMLInputElement ? el.type : undefined,
    role: el.getAttribute('role'),
    isContentEditable: el.isContentEditable,
  };

export function EditorApp({ renderer }: { renderer: PageRenderer }) {
  const state = useEditorState();
  const { store, actions, options, playhead } = useServices();
  const previewing = usePlayhead((s) => s.previewing);
  const [tab, setTab] = useState<Tab>('layers');
  const [problem, setProblem] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const page = activePage(state.doc);

  const fitPage = useCallback(() => {
    const viewport = root.current?.querySelector('.pe-viewport');
    if (!viewport) return;
    const current = activePage(store.get().doc);
    store.set({ zoom: fitZoom(current, { width: viewport.clientWidth, height: viewport.clientHeight }) });
  }, [store]);

  // Fit when a page of another size comes up (opening, switching pages).
  const size = `${page.id}:${page.width}x${page.height}`;
  useEffect(() => fitPage(), [size, fitPage]);

  // One listener for the whole editor; fields keep their own keys (see commandFor).
  const runRef = useRef<(command: Command) => void>(() => undefined);
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
      // Space plays and pauses wherever it would not type or press something (the stage handles its own).
      if (event.key === ' ' && plain && spaceTogglesPlay(focusTarget(target))) {
        event.preventDefault();
        if (!event.repeat) playhead.toggle();
        return;
      }
      // Escape ends a preview before it deselects anything.
      if (event.key === 'Escape' && plain && playhead.get().previewing && !isField(target)) {
        event.preventDefault();
        playhead.edit();
        return;
      }
      const command = commandFor(event, isField(event.target));
      if (!command) return;
      // Buttons keep Enter and Escape for themselves (a dialog closes, a button activates).
      const onButton = event.target instanceof HTMLButtonElement;
      if (onButton && (command.kind === 'edit-text' || command.kind === 'deselect')) return;
      event.preventDefault();
      runRef.current(command);
    };
    el.addEventListener('keydown', onKeyDown);
    return () => el.removeEventListener('keydown', onKeyDown);
  }, []);

  const run = (command: Command) => {
    switch (command.kind) {
      case 'undo':
        return store.undo();
      case 'redo':
        return store.redo();
      case 'delete':
        return actions.deleteSelection();
      case 'duplicate':
        return actions.duplicateSelection();
      case 'copy':
        return actions.copy();
      case 'paste':
        return actions.paste();
      case 'select-all':
        return actions.selectAll();
      case 'deselect':
        // Escape climbs out of an entered group first, as in design tools.
        if (!actions.leaveGroup()) store.select([]);
        return;
      case 'group':
        return actions.group();
      case 'ungroup':
        return actions.ungroup();
      case 'nudge':
        // While previewing, the arrow keys move through time: the selection is not on screen.
        if (playhead.get().previewing) {
          if (command.dx !== 0) playhead.step(Math.sign(command.dx) * (Math.abs(command.dx) > 1 ? 30 : 1));
          return;
        }
        return actions.nudge(command.dx, command.dy);
      case 'zoom-in':
        return store.set({ zoom: stepZoom(store.get().zoom, 1) });
      case 'zoom-out':
        return store.set({ zoom: stepZoom(store.get().zoom, -1) });
      case 'zoom-reset':
        return store.set({ zoom: 1 });
      case 'edit-text': {
        const [id] = state.selection;
        const el = id ? locate(page.elements, id)?.element : undefined;
        if (state.selection.length !== 1 || !el) return;
        // Enter on a group goes inside it, selecting its topmost child.
        if (el.type === 'group')
          return actions.enterGroup(
            el.id,
            el.elements.slice(-1).map((c) => c.id),
          );
        if (el.type === 'text' && !state.readOnly && !el.locked) store.set({ editingTextId: el.id });
        return;
      }
    }
  };

  runRef.current = run;

  const tabs: { id: Tab; label: string }[] = [
    { id: 'layers', label: 'Layers' },
    { id: 'pages', label: 'Pages' },
    { id: 'variables', label: 'Variables' },
    ...(options.features.smartResize ? [{ id: 'resize' as const, label: 'Resize' }] : []),
  ];

  return (
    <div ref={root} class={`pe-editor${state.readOnly ? ' is-readonly' : ''}`}>
      <Toolbar fitPage={fitPage} />
      <aside class="pe-left" aria-label="Layers, pages and variables">
        <div class="pe-tabs" role="tablist" aria-label="Side panels">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`pe-tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls="pe-tabpanel"
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div class="pe-tabpanel" id="pe-tabpanel" role="tabpanel" aria-labelledby={`pe-tab-${tab}`}>
          {tab === 'layers' && <LayersPanel />}
          {tab === 'pages' && <PagesPanel />}
          {tab === 'variables' && <VariablesPanel />}
          {tab === 'resize' && <ResizePanel />}
        </div>
      </aside>
      <main class="pe-main">
        <Stage renderer={renderer} onProblem={setProblem} />
        <TimelinePanel />
      </main>
      <aside class="pe-right" aria-label="Properties">
        <PropertiesPanel />
      </aside>
      <div class="pe-status" role="status" aria-live="polite">
        {state.readOnly && <span class="pe-badge">View only</span>}
        <span>
          {page.name ?? page.id} · {page.width}×{page.height} · {state.selection.length} selected
        </span>
        {state.previewVariables && <span class="pe-badge">Previewing sample values</span>}
        {previewing && <span class="pe-badge">Previewing motion</span>}
        {(state.notice ?? problem) && <span class="pe-problem">{state.notice ?? problem}</span>}
      </div>
    </div>
  );
}
