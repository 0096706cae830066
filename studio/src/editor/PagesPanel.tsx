/**
 * The pages panel: switch the active page, add a blank page, duplicate, delete (never the last
 * page) and reorder. Each change is one undo step except switching, which is navigation.
 */
import { useEditorState, useServices } from './context.ts';
import { addPage, deletePage, duplicatePage, movePage } from './doc-ops.ts';
import { Icon } from './icons.tsx';

export function PagesPanel() {
  const state = useEditorState();
  const { store, actions } = useServices();
  const doc = state.doc;
  const d = state.readOnly;
  return (
    <div class="pe-pages">
      <button type="button" class="pe-wide" disabled={d} onClick={() => store.commit(addPage(doc), [])}>
        + Add page
      </button>
      <ol aria-label="Pages">
        {doc.pages.map((page, index) => {
          const active = page.id === doc.activePageId;
          const name = page.name || `Page ${index + 1}`;
          return (
            <li key={page.id} class={active ? 'is-selected' : ''}>
              <button
                type="button"
                class="pe-layer-name"
                aria-current={active ? 'page' : undefined}
                aria-label={`Show page ${index + 1}: ${name}`}
                onClick={() => actions.showPage(page.id)}
              >
                <span class="pe-layer-type">{index + 1}</span> {name}
                <span class="pe-dim">
                  {page.width}×{page.height}
                </span>
              </button>
              <button
                type="button"
                class="pe-icon"
                disabled={d}
                aria-label={`Duplicate ${name}`}
                title="Duplicate"
                onClick={() => store.commit(duplicatePage(doc, page.id), [])}
              >
                <Icon name="copy" />
              </button>
              <button
                type="button"
                class="pe-icon"
                disabled={d || doc.pages.length <= 1}
                aria-label={`Delete ${name}`}
                title="Delete"
                onClick={() => store.commit(deletePage(doc, page.id), [])}
              >
                <Icon name="trash" />
              </button>
              <button
                type="button"
                class="pe-icon"
                disabled={d || index === 0}
                aria-label={`Move ${name} up`}
                title="Move up"
                onClick={() => store.commit(movePage(doc, page.id, index - 1))}
              >
                <Icon name="up" />
              </button>
              <button
                type="button"
                class="pe-icon"
                disabled={d || index === doc.pages.length - 1}
                aria-label={`Move ${name} down`}
                title="Move down"
                onClick={() => store.commit(movePage(doc, page.id, index + 1))}
              >
                <Icon name="down" />
              </button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
