/**
 * The layers panel: the active page's elements from top (drawn last) to bottom, each selectable,
 * with hide/show, lock/unlock and up/down buttons, and drag-and-drop reordering for the pointer.
 */
import { useState } from 'preact/hooks';
import { useEditorState, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import { Icon } from './icons.tsx';
import { displayName, label } from './PropertiesPanel.tsx';

export function LayersPanel() {
  const state = useEditorState();
  const { store, actions } = useServices();
  const [dragged, setDragged] = useState<string | null>(null);
  const elements = activePage(state.doc).elements;
  const count = elements.length;
  const d = state.readOnly;
  if (count === 0) return <p class="pe-hint">No elements on this page yet: add one from the toolbar.</p>;
  return (
    <ul class="pe-layers" aria-label="Layers, top first">
      {[...elements].reverse().map((el, row) => {
        const index = count - 1 - row;
        const selected = state.selection.includes(el.id);
        const name = displayName(el);
        return (
          <li
            key={el.id}
            class={`${selected ? 'is-selected' : ''} ${el.visible ? '' : 'is-hidden'}`}
            draggable={!d}
            onDragStart={(event) => {
              setDragged(el.id);
              event.dataTransfer?.setData('text/plain', el.id);
            }}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              if (dragged && dragged !== el.id) actions.moveLayerTo(dragged, index);
              setDragged(null);
            }}
          >
            <button
              type="button"
              class="pe-layer-name"
              aria-pressed={selected}
              aria-label={`Select ${label(el)} ${name}`}
              onClick={(event) => {
                const ids = state.selection;
                store.select(
                  event.shiftKey ? (selected ? ids.filter((i) => i !== el.id) : [...ids, el.id]) : [el.id],
                );
              }}
            >
              <span class="pe-layer-type">{label(el)}</span> {name}
            </button>
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
          </li>
        );
      })}
    </ul>
  );
}
