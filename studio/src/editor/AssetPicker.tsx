/**
 * The asset picker dialog (only with features.assetPicker): the workspace's images (or videos)
 * through the shell's `assets.list`, an upload through `assets.upload`, and a pick that yields an
 * `asset:<id>` source. The editor makes no network call itself; the shell's functions do. Videos
 * are listed once the service accepts video uploads; until then the list says there are none.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useServices } from './context.ts';
import type { StudioAsset } from './contract.ts';
import { Icon } from './icons.tsx';

export interface PickedImage {
  src: string;
  width?: number;
  height?: number;
}

export type PickerKind = 'image' | 'video';

const WORDS: Record<PickerKind, { a: string; one: string; many: string; accept: string; formats: string }> = {
  image: {
    a: 'an image',
    one: 'image',
    many: 'images',
    accept: 'image/*',
    formats: 'a PNG, JPEG, WebP or SVG image',
  },
  video: {
    a: 'a video',
    one: 'video',
    many: 'videos',
    accept: 'video/mp4,video/webm',
    formats: 'an MP4 or WebM video',
  },
};

const sizeOf = (asset: StudioAsset) => ({
  width: asset.width ?? asset.media?.width,
  height: asset.height ?? asset.media?.height,
});

const isKind = (asset: StudioAsset, kind: PickerKind) =>
  asset.kind === kind || (kind === 'video' && asset.mimeType.startsWith('video/'));

export function AssetPicker({
  onPick,
  onClose,
  kind = 'image',
}: {
  onPick(image: PickedImage): void;
  onClose(): void;
  kind?: PickerKind;
}) {
  const { options } = useServices();
  const words = WORDS[kind];
  const [assets, setAssets] = useState<StudioAsset[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialog.current?.focus();
    options.assets?.list().then(
      (all) => setAssets(all.filter((a) => isKind(a, kind))),
      () => setProblem(`The ${words.many} could not be listed.`),
    );
  }, [options.assets, kind]);

  const pick = (asset: StudioAsset) => {
    const { width, height } = sizeOf(asset);
    onPick({
      src: `asset:${asset.id}`,
      ...(width !== undefined ? { width } : {}),
      ...(height !== undefined ? { height } : {}),
    });
  };

  const upload = async (file: File | undefined) => {
    if (!file || !options.assets) return;
    setBusy(true);
    setProblem(null);
    try {
      const asset = await options.assets.upload(file);
      if (isKind(asset, kind)) pick(asset);
      else setProblem(`That file is not ${words.a}: try ${words.formats}.`);
    } catch {
      setProblem(`The upload failed. Try ${words.formats}.`);
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
        aria-label={`Choose ${words.a}`}
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
          <h2>Choose {words.a}</h2>
          <button type="button" onClick={onClose} aria-label={`Close the ${words.one} picker`}>
            ✕
          </button>
        </div>
        <label class="pe-upload">
          <span>{busy ? 'Uploading…' : `Upload ${words.a}`}</span>
          <input
            type="file"
            accept={words.accept}
            disabled={busy}
            onChange={(event) => void upload(event.currentTarget.files?.[0])}
          />
        </label>
        {problem && <p role="alert">{problem}</p>}
        {assets === null && !problem && <p>Loading {words.many}…</p>}
        {assets?.length === 0 && <p>No {words.many} yet: upload one.</p>}
        <ul class="pe-assets">
          {assets?.map((asset) => (
            <li key={asset.id}>
              <button type="button" onClick={() => pick(asset)} aria-label={`Use ${words.one} ${asset.id}`}>
                {kind === 'image' ? (
                  <img src={asset.url} alt="" loading="lazy" />
                ) : (
                  <span class="pe-asset-video">
                    <Icon name="video" />
                    {asset.id}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
