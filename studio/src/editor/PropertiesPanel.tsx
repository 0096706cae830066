/**
 * The properties panel: every property of the selected element (box, appearance, state, then the
 * type's own fields), a summary for a multiple selection, and the active page's properties when
 * nothing is selected. Read-only disables every field; values still show.
 */
import type { Element, Page } from '../../../src/engine/browser.ts';
import { useEditorState, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import { ElementFields } from './element-fields.tsx';
import { CheckboxField, ColorField, NumberField, Section, SelectField, TextField } from './fields.tsx';
import { ImageSourceField } from './ImageSourceField.tsx';

export function PropertiesPanel() {
  const state = useEditorState();
  const page = activePage(state.doc);
  const selected = page.elements.filter((el) => state.selection.includes(el.id));
  const [only] = selected;
  return (
    <div class="pe-properties">
      {selected.length === 0 && <PageFields page={page} disabled={state.readOnly} />}
      {selected.length === 1 && only && <ElementProperties el={only} disabled={state.readOnly} />}
      {selected.length > 1 && <MultipleSelection count={selected.length} disabled={state.readOnly} />}
    </div>
  );
}

function ElementProperties({ el, disabled }: { el: Element; disabled: boolean }) {
  const { actions } = useServices();
  const patch = (p: Record<string, unknown>) => actions.updateElement(el.id, p);
  const d = disabled;
  const box = el.type !== 'line';
  return (
    <>
      <Section title={`${label(el)} properties`}>
        <TextField
          label="Name (variable key)"
          value={el.name ?? ''}
          disabled={d}
          onCommit={(name) => patch({ name: name.trim() === '' ? undefined : name.trim() })}
        />
        {box && (
          <div class="pe-grid2">
            <NumberField label="X" value={el.x} disabled={d} onCommit={(x) => patch({ x })} />
            <NumberField label="Y" value={el.y} disabled={d} onCommit={(y) => patch({ y })} />
            <NumberField
              label="Width"
              value={el.width}
              min={0}
              disabled={d}
              onCommit={(width) => patch({ width })}
            />
            <NumberField
              label="Height"
              value={el.height}
              min={0}
              disabled={d}
              onCommit={(height) => patch({ height })}
            />
          </div>
        )}
        <div class="pe-grid2">
          <NumberField
            label="Rotation (°)"
            value={el.rotation}
            min={-360}
            max={360}
            disabled={d}
            onCommit={(rotation) => patch({ rotation })}
          />
          <NumberField
            label="Opacity (%)"
            value={Math.round(el.opacity * 100)}
            min={0}
            max={100}
            disabled={d}
            onCommit={(percent) => patch({ opacity: percent / 100 })}
          />
        </div>
        <CheckboxField
          label="Visible"
          value={el.visible}
          disabled={d}
          onCommit={(visible) => patch({ visible })}
        />
        <CheckboxField
          label="Locked"
          value={el.locked}
          disabled={d}
          onCommit={(locked) => patch({ locked })}
        />
      </Section>
      <ElementFields el={el} disabled={d} patch={patch} />
    </>
  );
}

function MultipleSelection({ count, disabled }: { count: number; disabled: boolean }) {
  const { actions } = useServices();
  return (
    <Section title={`${count} elements selected`}>
      <p class="pe-hint">Drag to move them together, or use the handles to scale the group.</p>
      <div class="pe-row">
        <button type="button" disabled={disabled} onClick={() => actions.duplicateSelection()}>
          Duplicate
        </button>
        <button type="button" disabled={disabled} onClick={() => actions.deleteSelection()}>
          Delete
        </button>
      </div>
    </Section>
  );
}

function PageFields({ page, disabled }: { page: Page; disabled: boolean }) {
  const { actions } = useServices();
  const d = disabled;
  const image = typeof page.background === 'string' ? null : page.background;
  return (
    <Section title="Page properties">
      <TextField
        label="Page name"
        value={page.name ?? ''}
        disabled={d}
        onCommit={(name) => actions.updatePage({ name })}
      />
      <div class="pe-grid2">
        <NumberField
          label="Page width"
          value={page.width}
          min={1}
          disabled={d}
          onCommit={(width) => actions.updatePage({ width })}
        />
        <NumberField
          label="Page height"
          value={page.height}
          min={1}
          disabled={d}
          onCommit={(height) => actions.updatePage({ height })}
        />
      </div>
      <SelectField
        label="Background"
        value={image ? 'image' : 'colour'}
        options={['colour', 'image'] as const}
        disabled={d}
        onCommit={(kind) =>
          actions.updatePage({
            background:
              kind === 'colour' ? '#ffffff' : { src: 'https://example.com/background.jpg', fit: 'cover' },
          })
        }
      />
      {image ? (
        <>
          <ImageSourceField
            value={image.src}
            disabled={d}
            onCommit={(src) => actions.updatePage({ background: { ...image, src } })}
          />
          <SelectField
            label="Background fit"
            value={image.fit}
            options={['cover', 'contain', 'fill'] as const}
            disabled={d}
            onCommit={(fit) => actions.updatePage({ background: { ...image, fit } })}
          />
        </>
      ) : (
        <ColorField
          label="Background colour"
          value={typeof page.background === 'string' ? page.background : '#ffffff'}
          disabled={d}
          onCommit={(background) => actions.updatePage({ background })}
        />
      )}
    </Section>
  );
}

const TYPE_LABELS: Record<Element['type'], string> = {
  text: 'Text',
  image: 'Image',
  rect: 'Rectangle',
  ellipse: 'Ellipse',
  line: 'Line',
  svg: 'SVG',
  qr: 'QR code',
};

export function label(el: Element): string {
  return TYPE_LABELS[el.type];
}

/** The name a person sees for an element in lists: its name, its text, or its type and id. */
export function displayName(el: Element): string {
  if (el.name) return el.name;
  if (el.type === 'text' && el.text.trim()) return el.text.trim().slice(0, 30);
  return `${TYPE_LABELS[el.type]} ${el.id}`;
}
