/**
 * The properties panel: every property of the selected element (box, appearance, state, then the
 * type's own fields, effects, and its animations and keyframes), a summary for a multiple
 * selection, and the active page's properties (motion included) when nothing is selected.
 * Read-only disables every field; values still show.
 */
import { type Element, isImageBackground, type Page } from '../../../src/engine/browser.ts';
import { useEditorState, useServices } from './context.ts';
import { activePage } from './doc-ops.ts';
import { EffectFields } from './EffectFields.tsx';
import { ElementFields } from './element-fields.tsx';
import { CheckboxField, NumberField, Section, SelectField, TextField } from './fields.tsx';
import { ImageSourceField } from './ImageSourceField.tsx';
import { MotionFields, PageMotionFields } from './MotionFields.tsx';
import { PaintField } from './PaintField.tsx';
import { locate } from './tree-ops.ts';

export function PropertiesPanel() {
  const state = useEditorState();
  const page = activePage(state.doc);
  const selected = state.selection.map((id) => locate(page.elements, id)).filter((found) => found !== null);
  const [only] = selected;
  return (
    <div class="pe-properties">
      {/* Keyed: a field's uncommitted draft belongs to the page or element it was typed for. */}
      {selected.length === 0 && <PageFields key={page.id} page={page} disabled={state.readOnly} />}
      {selected.length === 1 && only && (
        <ElementProperties
          key={only.element.id}
          el={only.element}
          page={page}
          inGroup={only.parent !== null}
          disabled={state.readOnly}
        />
      )}
      {selected.length > 1 && <MultipleSelection count={selected.length} disabled={state.readOnly} />}
    </div>
  );
}

function ElementProperties({
  el,
  page,
  inGroup,
  disabled,
}: {
  el: Element;
  page: Page;
  inGroup: boolean;
  disabled: boolean;
}) {
  const { actions } = useServices();
  const patch = (p: Record<string, unknown>) => actions.updateElement(el.id, p);
  const d = disabled;
  const box = el.type !== 'line';
  return (
    <>
      <Section title={`${label(el)} properties`}>
        {inGroup && <p class="pe-hint">Inside a group: X and Y are from the group's top-left corner.</p>}
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
      <EffectFields el={el} disabled={d} patch={patch} />
      <MotionFields el={el} page={page} disabled={d} patch={patch} />
    </>
  );
}

function MultipleSelection({ count, disabled }: { count: number; disabled: boolean }) {
  const { actions } = useServices();
  return (
    <Section title={`${count} elements selected`}>
      <p class="pe-hint">Drag to move them together, or use the handles to scale the group.</p>
      <div class="pe-row">
        <button type="button" disabled={disabled} onClick={() => actions.group()}>
          Group
        </button>
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
  return (
    <>
      <PageBaseFields page={page} disabled={disabled} />
      <PageMotionFields page={page} disabled={disabled} />
    </>
  );
}

function PageBaseFields({ page, disabled: d }: { page: Page; disabled: boolean }) {
  const { actions } = useServices();
  const background = page.background;
  const image = isImageBackground(background) ? background : null;
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
      {image ? (
        <>
          <SelectField
            label="Background type"
            value="image"
            options={['image', 'solid'] as const}
            labels={{ image: 'Image', solid: 'Solid colour' }}
            disabled={d}
            onCommit={() => actions.updatePage({ background: '#ffffff' })}
          />
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
        <PaintField
          label="Background"
          value={background as Exclude<typeof background, { src: string }>}
          disabled={d}
          onCommit={(paint) => actions.updatePage({ background: paint })}
          extraKinds={{
            value: 'image',
            label: 'Image',
            onPick: () =>
              actions.updatePage({ background: { src: 'https://example.com/background.jpg', fit: 'cover' } }),
          }}
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
  barcode: 'Barcode',
  video: 'Video',
  group: 'Group',
};

export function label(el: Element): string {
  return TYPE_LABELS[el.type];
}

/** The name a person sees for an element in lists: its name, its text, or its type and id. */
export function displayName(el: Element): string {
  if (el.name) return el.name;
  const text = el.type === 'text' ? (el.spans ? el.spans.map((s) => s.text).join('') : el.text).trim() : '';
  if (text) return text.slice(0, 30);
  return `${TYPE_LABELS[el.type]} ${el.id}`;
}
