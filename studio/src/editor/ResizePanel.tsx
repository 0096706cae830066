/**
 * Smart resize (only with features.smartResize): pick a size, then get the design at that size as
 * a new page of this document (added here, one undo step) or as a new template (handed to the
 * shell through onResizeToNewTemplate). The rules live in the design core's resize.ts.
 */
import { useState } from 'preact/hooks';
import { resizeDocument, resizePage } from '../../../src/engine/browser.ts';
import { useEditorState, useServices } from './context.ts';
import { activePage, insertPage, withFreshIds } from './doc-ops.ts';
import { NumberField, SelectField } from './fields.tsx';

export const RESIZE_PRESETS = [
  { id: 'square', label: 'Square post 1080×1080', width: 1080, height: 1080 },
  { id: 'story', label: 'Story 1080×1920', width: 1080, height: 1920 },
  { id: 'banner', label: 'Link banner 1200×628', width: 1200, height: 628 },
  { id: 'custom', label: 'Custom size', width: 0, height: 0 },
] as const;

type PresetId = (typeof RESIZE_PRESETS)[number]['id'];

export function ResizePanel() {
  const state = useEditorState();
  const { store, options } = useServices();
  const [preset, setPreset] = useState<PresetId>('story');
  const [custom, setCustom] = useState({ width: 1080, height: 1350 });
  const [done, setDone] = useState<string | null>(null);
  const chosen = RESIZE_PRESETS.find((p) => p.id === preset);
  const size = preset === 'custom' || !chosen ? custom : { width: chosen.width, height: chosen.height };
  const page = activePage(state.doc);
  const valid = size.width >= 1 && size.height >= 1 && size.width <= 10_000 && size.height <= 10_000;

  const asPage = () => {
    const doc = store.get().doc;
    const resized = resizePage(activePage(doc), size);
    const copy = withFreshIds(doc, resized, `${page.name ?? 'Page'} ${size.width}×${size.height}`);
    store.commit(insertPage(doc, copy), []);
    setDone(`Added page ${size.width}×${size.height}.`);
  };
  const asTemplate = () => {
    options.onResizeToNewTemplate?.(resizeDocument(store.get().doc, size));
    setDone(`Asked for a new ${size.width}×${size.height} design.`);
  };

  return (
    <div class="pe-resize">
      <p class="pe-hint">
        Turns this {page.width}×{page.height} design into another size: elements keep their place by the
        nearest edge and text stays readable.
      </p>
      <SelectField
        label="New size"
        value={preset}
        options={RESIZE_PRESETS.map((p) => p.id)}
        labels={Object.fromEntries(RESIZE_PRESETS.map((p) => [p.id, p.label]))}
        disabled={false}
        onCommit={(id) => {
          setPreset(id);
          return true;
        }}
      />
      {preset === 'custom' && (
        <div class="pe-grid2">
          <NumberField
            label="Width"
            value={custom.width}
            min={1}
            max={10000}
            disabled={false}
            onCommit={(width) => {
              setCustom({ ...custom, width: Math.round(width) });
              return true;
            }}
          />
          <NumberField
            label="Height"
            value={custom.height}
            min={1}
            max={10000}
            disabled={false}
            onCommit={(height) => {
              setCustom({ ...custom, height: Math.round(height) });
              return true;
            }}
          />
        </div>
      )}
      <button type="button" class="pe-wide" disabled={state.readOnly || !valid} onClick={asPage}>
        Resize as a new page
      </button>
      {options.onResizeToNewTemplate && (
        <button type="button" class="pe-wide" disabled={!valid} onClick={asTemplate}>
          Resize as a new design
        </button>
      )}
      {done && <p role="status">{done}</p>}
    </div>
  );
}
