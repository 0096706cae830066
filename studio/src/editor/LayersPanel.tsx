/**
 * The layers panel: the active page's element tree, each list from top (drawn last) to bottom, a
 * group's children indented under it. Every row selects its element (entering the group that
 * holds it, so nested elements are reachable without the pointer), with hide/show, lock/unlock
 * and up/down buttons, and drag-and-drop reordering within a list for the pointer.
 */
import { useState } from 'preact/hooks';
import type { Element } from '../../../src/engine/browser.ts';
import { useEditorState, useServices } from './context.ts';
import type { EditorFinding } from './contract.ts';
import { activePage } from './doc-ops.ts';
import { Icon } from './icons.tsx';
import { displayName, label } from './PropertiesPanel.tsx';

export function LayersPanel() {
  const state = useEditorState();
  const elements = activePage(state.doc).elements;
  const [dragged, setDragged] = useState<string | null>(null);
  if (elements.length === 0)
    return <p class="pe-hint">No elements on this page yet: add one from the toolbar.</p>;
  return (
    <LayerList elements={elements} label="Layers, top first" dragged={dragged} setDragged={setDragged} />
  );
}

function LayerList({
  elements,
  label: listLabel,
  dragged,
  setDragged,
}: {
  elements: readonly Element[];
  label: string;
  dragged: string | null;
  setDragged(id: string | null): void;
}) {
  const count = elements.length;
  return (
    <ul class="pe-layers" aria-label={listLabel}>
      {[...elements].reverse().map((el, row) => (
        <LayerRow
          key={el.id}
          el={el}
          index={count - 1 - row}
          count={count}
          siblings={elements}
          dragged={dragged}
          setDragged={setDragged}
        />
      ))}
    </ul>
  );
}

function LayerRow({
  el,
  index,
  count,
  siblings,
  dragged,
  setDragged,
}: {
  el: Element;
  index: number;
  count: number;
  siblings: readonly Element[];
  dragged: string | null;
  setDragged(id: string | null): void;
}) {
  const state = useEditorState();
  const { actions } = useServices();
  const d = state.readOnly;
  const selected = state.selection.includes(el.id);
  const name = displayName(el);
  return (
    <li
      class={`${el.visible ? '' : 'is-hidden'} ${state.scopeId === el.id ? 'is-scope' : ''}`}
      draggable={!d}
      onDragStart={(event) => {
        event.stopPropagation();
        setDragged(el.id);
        event.dataTransfer?.setData('text/plain', el.id);
      }}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        event.stopPropagation();
        // Reordering stays within one list; grouping is what moves elements between lists.
        if (dragged && dragged !== el.id && siblings.some((s) => s.id === dragged))
          actions.moveLayerTo(dragged, index);
        setDragged(null);
      }}
    >
      <div class={`pe-layer-row${selected ? ' is-selected' : ''}`}>
        <button
          type="button"
          class="pe-layer-name"
          aria-pressed={selected}
          aria-label={`Select ${label(el)} ${name}`}
          onClick={(event) => actions.reveal(el.id, event.shiftKey)}
        >
          <span class="pe-layer-type">{label(el)}</span> {name}
        </button>
        <FindingMark findings={state.findings.filter((f) => f.elementId === el.id)} />
        <button
          type="button"
          class="pe-icon"
          disabled={d}
          aria-pressed={!el.visible}
          aria-label={`${el.visible ? 'Hide' : 'Show'} ${name}`}
          title={el.visible ? 'Hide' : 'Show'}
          onClick={() => actions.toggle(el.id, 'visible')}
        >
          <Icon name={el.visible ? 'eye' : 'eyeOff'} />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d}
          aria-pressed={el.locked}
          aria-label={`${el.locked ? 'Unlock' : 'Lock'} ${name}`}
          title={el.locked ? 'Unlock' : 'Lock'}
          onClick={() => actions.toggle(el.id, 'locked')}
        >
          <Icon name={el.locked ? 'lock' : 'unlock'} />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d || index === count - 1}
          aria-label={`Bring ${name} forward`}
          title="Forward"
          onClick={() => actions.restack(el.id, 1)}
        >
          <Icon name="up" />
        </button>
        <button
          type="button"
          class="pe-icon"
          disabled={d || index === 0}
          aria-label={`Send ${name} backward`}
          title="Backward"
          onClick={() => actions.restack(el.id, -1)}
        >
          <Icon name="down" />
        </button>
      </div>
      {el.type === 'group' && el.elements.length > 0 && (
        <LayerList
          elements={el.elements}
          label={`Inside ${name}, top first`}
          dragged={dragged}
          setDragged={setDragged}
        />
      )}
    </li>
  );
}

/** A mark beside a layer with preflight findings: its severity, and the messages as its name. */
function FindingMark({ findings }: { findings: readonly EditorFinding[] }) {
  if (findings.length === 0) return null;
  const worst = findings.some((f) => f.severity === 'error')
    ? 'error'
    : findings.some((f) => f.severity === 'warning')
      ? 'warning'
      : 'info';
  const text = findings.map((f) => f.message).join(' ');
  return (
    <span class={`pe-finding-mark is-${worst}`} role="img" aria-label={`${worst}: ${text}`} title={text}>
      {worst === 'info' ? 'i' : '!'}
    </span>
  );
}
