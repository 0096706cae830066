/**
 * An image source field: the source as text (asset:<id>, an https URL or a data URI) and, with
 * the asset picker enabled, a button that opens it.
 */
import { useState } from 'preact/hooks';
import { AssetPicker } from './AssetPicker.tsx';
import { useServices } from './context.ts';
import { TextField } from './fields.tsx';

export function ImageSourceField(props: {
  value: string;
  disabled: boolean;
  onCommit(src: string): boolean;
}) {
  const { options } = useServices();
  const [picking, setPicking] = useState(false);
  const canPick = options.features.assetPicker && options.assets !== null && !props.disabled;
  // A data URI can be megabytes: show its start only, and edit it by replacing it.
  const isData = props.value.startsWith('data:');
  return (
    <>
      <TextField
        label="Image source"
        value={isData ? `${props.value.slice(0, 40)}…` : props.value}
        placeholder="https://… or asset:…"
        disabled={props.disabled}
        onCommit={(src) => (isData && src.endsWith('…') ? true : props.onCommit(src))}
      />
      {canPick && (
        <button type="button" class="pe-wide" onClick={() => setPicking(true)}>
          Choose from images…
        </button>
      )}
      {picking && (
        <AssetPicker
          onPick={(image) => {
            setPicking(false);
            props.onCommit(image.src);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </>
  );
}
