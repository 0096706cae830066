/**
 * A video element's own properties: its source (an uploaded video asset, typed as `asset:<id>` or
 * picked from the asset picker's videos), fit, corner radius, where in the clip the scene starts,
 * and whether it is muted or loops. The canvas shows the clip's frame at the playhead.
 */
import { useState } from 'preact/hooks';
import type { VideoElement } from '../../../src/engine/browser.ts';
import { AssetPicker } from './AssetPicker.tsx';
import { useServices } from './context.ts';
import { CheckboxField, NumberField, Section, SelectField, TextField } from './fields.tsx';

type Patch = (patch: Record<string, unknown>) => boolean;

export function VideoFields({ el, disabled, patch }: { el: VideoElement; disabled: boolean; patch: Patch }) {
  const { options } = useServices();
  const [picking, setPicking] = useState(false);
  const canPick = options.features.assetPicker && options.assets !== null && !disabled;
  return (
    <Section title="Video">
      <TextField
        label="Video source"
        value={el.src}
        placeholder="asset:…"
        disabled={disabled}
        onCommit={(src) => patch({ src: src.trim() })}
      />
      {canPick && (
        <button type="button" class="pe-wide" onClick={() => setPicking(true)}>
          Choose from videos…
        </button>
      )}
      {picking && (
        <AssetPicker
          kind="video"
          onPick={(picked) => {
            setPicking(false);
            patch({ src: picked.src });
          }}
          onClose={() => setPicking(false)}
        />
      )}
      <SelectField
        label="Fit"
        value={el.fit}
        options={['cover', 'contain', 'fill'] as const}
        disabled={disabled}
        onCommit={(fit) => patch({ fit })}
      />
      <NumberField
        label="Corner radius"
        value={el.cornerRadius}
        min={0}
        disabled={disabled}
        onCommit={(cornerRadius) => patch({ cornerRadius })}
      />
      <NumberField
        label="Start the clip at (s)"
        value={(el.trimStartMs ?? 0) / 1000}
        min={0}
        step={0.1}
        disabled={disabled}
        onCommit={(s) => patch({ trimStartMs: s > 0 ? Math.round(s * 1000) : undefined })}
      />
      <CheckboxField
        label="Muted"
        value={el.muted ?? false}
        disabled={disabled}
        onCommit={(muted) => patch({ muted: muted ? true : undefined })}
      />
      <CheckboxField
        label="Loop the clip"
        value={el.loop ?? false}
        disabled={disabled}
        onCommit={(loop) => patch({ loop: loop ? true : undefined })}
      />
      <p class="pe-hint">
        The page shows the clip's frame at the playhead; play the timeline to preview it (the preview is
        silent).
      </p>
    </Section>
  );
}
