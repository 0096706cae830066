/** Assets: upload images and fonts, list them, delete. */
import type { Asset } from '@platen/client';
import { call, type Page } from '../client.ts';
import { Empty, ErrorNote, Show, useAction, useLoad, when } from '../ui.tsx';

export function AssetsScreen({ workspaceId }: { workspaceId: string }) {
  const assets = useLoad(
    () => call<Page<Asset>>('GET', '/v1/assets?limit=100', { workspaceId }),
    workspaceId,
  );
  const [error, busy, act] = useAction();
  const upload = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    void act(async () => {
      for (const file of files) await call('POST', '/v1/assets', { workspaceId, file });
      input.value = '';
      assets.reload();
    });
  };
  const remove = (asset: Asset) =>
    act(async () => {
      if (!window.confirm('Delete this asset? Templates that use it will render without it.')) return;
      await call('DELETE', `/v1/assets/${asset.id}`, { workspaceId });
      assets.reload();
    });
  return (
    <section aria-labelledby="assets-title">
      <h1 id="assets-title">Assets</h1>
      <div class="console-card">
        <label for="asset-upload">
          Upload images (PNG, JPEG, WebP, GIF, SVG), fonts (TTF, OTF, WOFF, WOFF2), videos (MP4, WebM) or
          audio (MP3, M4A, WAV)
        </label>
        <input
          id="asset-upload"
          type="file"
          multiple
          disabled={busy}
          onChange={(e) => upload(e.currentTarget)}
        />
        {busy && <p role="status">Uploading…</p>}
        <ErrorNote error={error} />
      </div>
      <Show loaded={assets} what="assets">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No assets yet. Upload a logo or a font.</Empty>
          ) : (
            <ul class="console-grid">
              {page.items.map((asset) => (
                <li key={asset.id} class="console-card console-template">
                  <div class="console-thumb">
                    {asset.kind === 'image' ? (
                      <img src={asset.url} alt={`Asset ${asset.id}`} loading="lazy" />
                    ) : asset.kind === 'video' ? (
                      // The first frame, no sound, no autoplay: a poster that costs one range request.
                      <video
                        src={asset.url}
                        muted
                        preload="metadata"
                        aria-label={`Video asset ${asset.id}`}
                      />
                    ) : asset.kind === 'audio' ? (
                      <span aria-hidden="true" class="console-font">
                        ♪
                      </span>
                    ) : (
                      <span aria-hidden="true" class="console-font">
                        Aa
                      </span>
                    )}
                  </div>
                  <p>
                    <code>asset:{asset.id}</code>
                  </p>
                  <p class="console-muted">
                    {asset.mimeType} · {Math.ceil(asset.byteSize / 1024)} KB
                    {asset.durationMs != null && ` · ${(asset.durationMs / 1000).toFixed(1)} s`} ·{' '}
                    {when(asset.createdAt)}
                  </p>
                  <button
                    type="button"
                    onClick={() => void remove(asset)}
                    disabled={busy}
                    aria-label={`Delete asset ${asset.id}`}
                  >
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </section>
  );
}
