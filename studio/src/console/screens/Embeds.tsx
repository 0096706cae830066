/** Embeds: branding and toggles with a live preview, and the embed.js snippet to copy. */
import type { EmbedConfig as Embed } from '@platen/client';
import { useState } from 'preact/hooks';
import { call, consoleApi } from '../client.ts';
import { CopyButton, Empty, ErrorNote, Show, useAction, useLoad } from '../ui.tsx';

const TOGGLES = [
  ['enabled', 'Enabled'],
  ['downloadsEnabled', 'Downloads (rendering from the studio)'],
  ['assetPickerEnabled', 'Asset picker'],
  ['smartResizeEnabled', 'Smart resize'],
  ['multiTenant', 'Multi-tenant (each end-user sees their own templates)'],
  ['publishedOnly', 'Published templates only (the latest version, read-only)'],
] as const;

export function snippet(embedId: string): string {
  const origin = window.location.origin;
  return [
    `<div id="platen-studio" style="height: 720px"></div>`,
    `<script src="${origin}/embed.js"></script>`,
    '<script>',
    `  // token: from your backend, POST /v1/embed/${embedId}/session {"userId": "…"}`,
    `  const studio = Platen.open({ embedId: '${embedId}', token, container: '#platen-studio' });`,
    '</script>',
  ].join('\n');
}

export function EmbedsScreen({ workspaceId }: { workspaceId: string }) {
  const embeds = useLoad(
    () => call<{ items: Embed[] }>('GET', consoleApi(workspaceId, '/embeds')),
    workspaceId,
  );
  const [error, busy, act] = useAction();
  const create = () =>
    act(async () => {
      await call('POST', consoleApi(workspaceId, '/embeds'), { body: {} });
      embeds.reload();
    });
  return (
    <section aria-labelledby="embeds-title">
      <div class="console-row">
        <h1 id="embeds-title" class="console-grow">
          Embeds
        </h1>
        <button type="button" class="primary" onClick={() => void create()} disabled={busy}>
          New embed
        </button>
      </div>
      <ErrorNote error={error} />
      <Show loaded={embeds} what="embeds">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No embeds yet. An embed puts the studio in your own product.</Empty>
          ) : (
            data.items.map((embed) => (
              <EmbedEditor key={embed.id} workspaceId={workspaceId} embed={embed} onRemoved={embeds.reload} />
            ))
          )
        }
      </Show>
    </section>
  );
}

function EmbedEditor(props: { workspaceId: string; embed: Embed; onRemoved(): void }) {
  const [draft, setDraft] = useState(props.embed);
  const [saved, setSaved] = useState(false);
  const [error, busy, act] = useAction();
  const id = props.embed.id;
  const set = (patch: Partial<Embed>) => {
    setDraft({ ...draft, ...patch });
    setSaved(false);
  };
  const save = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const { id: _id, ...settings } = draft;
      const body = Object.fromEntries(
        Object.entries(settings).filter(
          ([key]) =>
            key in props.embed &&
            !['workspaceId', 'createdAt', 'updatedAt', 'mintRequiresApiKey'].includes(key),
        ),
      );
      setDraft(await call<Embed>('PATCH', consoleApi(props.workspaceId, `/embeds/${id}`), { body }));
      setSaved(true);
    });
  };
  const remove = () =>
    act(async () => {
      if (!window.confirm('Delete this embed? Studios embedded with it stop working.')) return;
      await call('DELETE', consoleApi(props.workspaceId, `/embeds/${id}`));
      props.onRemoved();
    });
  const code = snippet(id);
  return (
    <article class="console-card" aria-label={`Embed ${id}`}>
      <h2>
        <code>{id}</code>
      </h2>
      <div class="console-split">
        <form onSubmit={save} aria-label={`Settings of embed ${id}`}>
          <label for={`${id}-title`}>Brand title</label>
          <input
            id={`${id}-title`}
            value={draft.brandTitle}
            maxLength={100}
            onInput={(e) => set({ brandTitle: e.currentTarget.value })}
          />
          <label for={`${id}-accent`}>Accent colour</label>
          <input
            id={`${id}-accent`}
            type="color"
            value={draft.brandAccentColor}
            onInput={(e) => set({ brandAccentColor: e.currentTarget.value })}
          />
          <label for={`${id}-icon`}>Icon URL</label>
          <input
            id={`${id}-icon`}
            value={draft.brandIconUrl}
            onInput={(e) => set({ brandIconUrl: e.currentTarget.value })}
          />
          <fieldset>
            <legend>Toggles</legend>
            {TOGGLES.map(([key, label]) => (
              <label key={key} class="console-check">
                <input
                  type="checkbox"
                  checked={draft[key]}
                  onChange={(e) => set({ [key]: e.currentTarget.checked })}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          <div class="console-row">
            <button type="submit" class="primary" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => void remove()} disabled={busy}>
              Delete
            </button>
            {saved && <span role="status">Saved</span>}
          </div>
          <ErrorNote error={error} />
        </form>
        <div>
          <p class="console-muted">Preview of the studio header</p>
          <div class="console-embed-preview" style={{ '--accent': draft.brandAccentColor }}>
            <div class="console-embed-bar">
              {draft.brandIconUrl && <img src={draft.brandIconUrl} alt="" width={24} height={24} />}
              <strong>{draft.brandTitle}</strong>
              <span class="console-grow" />
              {draft.downloadsEnabled && <span class="console-embed-button">Download</span>}
            </div>
            <p class="console-muted">
              {draft.enabled ? 'Studio open' : 'Disabled: the studio shows a message'}
              {draft.assetPickerEnabled ? ' · asset picker' : ''}
              {draft.smartResizeEnabled ? ' · smart resize' : ''}
            </p>
          </div>
          <label for={`${id}-snippet`}>Snippet for your page</label>
          <textarea id={`${id}-snippet`} readOnly rows={6} value={code} />
          <CopyButton text={code} label={`Copy the snippet of embed ${id}`} />
        </div>
      </div>
    </article>
  );
}
