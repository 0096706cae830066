/**
 * The asset picker dialog (only with features.assetPicker): the workspace's images through the
 * shell's `assets.list`, an upload through `assets.upload`, and a pick that yields an `asset:<id>`
 * source. The editor makes no network call itself; the shell's functions do.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useServices } from './context.ts';
import type { StudioAsset } from './contract.ts';

export interface PickedImage {
  src: string;
  width?: number;
  height?: number;
}

export function AssetPicker({ onPick, onClose }: { onPick(image: PickedImage): void; onClose(): void }) {
  const { options } = useServices();
  const [assets, setAssets] = useState<StudioAsset[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialog.current?.focus();
    options.assets?.list().then(
      (all) => setAssets(all.filter((a) => a.kind === 'image')),
      () => setProblem('The images could not be listed.'),
    );
  }, [options.assets]);

  const pick = (asset: StudioAsset) =>
    onPick({
      src: `asset:${asset.id}`,
      ...(asset.width !== undefined ? { width: asset.width } : {}),
      ...(asset.height !== undefined ? { height: asset.height } : {}),
    });

  const upload = async (file: File | undefined) => {
    if (!file || !options.assets) return;
    setBusy(true);
    setProblem(null);
    try {
      pick(await options.assets.upload(file));
    } catch {
      setProblem('The upload failed. Try a PNG, JPEG, WebP or SVG image.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="pe-modal-backdrop">
      <div
        class="pe-modal"
        role="dialog"
        aria-modal="true"
        aria-label="Choose an image"
        tabIndex={-1}
        ref={dialog}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onClose();
          }
        }}
      >
        <div class="pe-modal-head">
          <h2>Choose an image</h2>
          <button type="button" onClick={onClose} aria-label="Close the image picker">
            ✕
          </button>
        </div>
        <label class="pe-upload">
          <span>{busy ? 'Uploading…' : 'Upload an image'}</span>
          <input
            type="file"
            accept="image/*"
            disabled={busy}
            onChange={(event) => void upload(event.currentTarget.files?.[0])}
          />
        </label>
        {problem && <p role="alert">{problem}</p>}
        {assets === null && !problem && <p>Loading images…</p>}
        {assets?.length === 0 && <p>No images yet: upload one.</p>}
        <ul class="pe-assets">
          {assets?.map((asset) => (
            <li key={asset.id}>
              <button type="button" onClick={() => pick(asset)} aria-label={`Use image ${asset.id}`}>
                <img src={asset.url} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
