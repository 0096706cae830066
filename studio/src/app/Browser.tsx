/**
 * The template browser: the end-user's own templates and the workspace's shared ones (with
 * thumbnails), "New design" from a size preset or a custom size, open, and duplicate a shared
 * template into an own copy (created with the shared one's document).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Api, ApiError, type EmbedInfo, type TemplateRecord } from '../api.ts';
import { ownPath } from './images.ts';
import { MAX_SIDE, PRESETS } from './presets.ts';

interface Props {
  api: Api;
  info: EmbedInfo;
  brand: ComponentChildren;
  onReady(): void;
  onOpen(templateId: string): void;
  onError(code: string, message: string): void;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong.');

export function Browser({ api, brand, onReady, onOpen, onError }: Props) {
  const [items, setItems] = useState<TemplateRecord[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [custom, setCustom] = useState({ width: 1000, height: 1000 });

  useEffect(() => {
    api.listTemplates().then(
      (list) => {
        setItems(list);
        onReady();
      },
      (error: unknown) => {
        setItems([]);
        setProblem(`Your designs could not be loaded: ${describe(error)}`);
        onReady();
        onError(error instanceof ApiError ? error.code : 'UNAVAILABLE', describe(error));
      },
    );
  }, [api]);

  async function create(label: string, width: number, height: number) {
    setBusy(true);
    setProblem(null);
    try {
      const template = await api.createTemplate({ name: `${label} design`, width, height });
      onOpen(template.id);
    } catch (error) {
      setProblem(`The design could not be created: ${describe(error)}`);
      setBusy(false);
    }
  }

  async function duplicate(record: TemplateRecord) {
    setBusy(true);
    setProblem(null);
    try {
      const source = await api.getTemplate(record.id);
      const copy = await api.createTemplate({ name: `${record.name} (copy)`, document: source.document });
      onOpen(copy.id);
    } catch (error) {
      setProblem(`The copy could not be made: ${describe(error)}`);
      setBusy(false);
    }
  }

  const customValid = [custom.width, custom.height].every(
    (v) => Number.isInteger(v) && v >= 1 && v <= MAX_SIDE,
  );
  const own = items?.filter((t) => !t.shared) ?? [];
  const shared = items?.filter((t) => t.shared) ?? [];

  return (
    <div class="browser">
      <header class="topbar">{brand}</header>
      <main class="browser-main" aria-busy={busy ? 'true' : 'false'}>
        <section aria-labelledby="new-heading">
          <h1 id="new-heading">New design</h1>
          <div class="presets">
            {PRESETS.map((preset) => (
              <button
                key={preset.id}
                type="button"
                class="preset"
                disabled={busy}
                onClick={() => void create(preset.label, preset.width, preset.height)}
              >
                <span class="preset-shape" style={{ aspectRatio: `${preset.width} / ${preset.height}` }} />
                {/* The accessible name is the visible text, with "New" for screen readers. */}
                <span class="preset-label">
                  <span class="visually-hidden">New </span>
                  {preset.label}
                </span>
                <span class="preset-size">
                  {preset.width} × {preset.height}
                </span>
              </button>
            ))}
            <form
              class="preset custom"
              onSubmit={(event) => {
                event.preventDefault();
                if (customValid) void create('Custom', custom.width, custom.height);
              }}
            >
              <span class="preset-label">Custom size</span>
              <label>
                Width
                <input
                  type="number"
                  min={1}
                  max={MAX_SIDE}
                  value={custom.width}
                  onInput={(e) => setCustom({ ...custom, width: Number(e.currentTarget.value) })}
                />
              </label>
              <label>
                Height
                <input
                  type="number"
                  min={1}
                  max={MAX_SIDE}
                  value={custom.height}
                  onInput={(e) => setCustom({ ...custom, height: Number(e.currentTarget.value) })}
                />
              </label>
              <button type="submit" disabled={busy || !customValid}>
                Create custom design
              </button>
            </form>
          </div>
        </section>
        {problem && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
        <TemplateSection
          title="Your designs"
          items={items}
          list={own}
          empty="No designs yet: start one above."
        >
          {(t) => (
            <button
              type="button"
              class="card-action"
              onClick={() => onOpen(t.id)}
              aria-label={`Open ${t.name}`}
            >
              Open
            </button>
          )}
        </TemplateSection>
        {shared.length > 0 && (
          <TemplateSection title="Shared templates" items={items} list={shared} empty="">
            {(t) => (
              <>
                <button
                  type="button"
                  class="card-action"
                  onClick={() => onOpen(t.id)}
                  aria-label={`View ${t.name}`}
                >
                  View
                </button>
                <button
                  type="button"
                  class="card-action primary"
                  disabled={busy}
                  onClick={() => void duplicate(t)}
                  aria-label={`Use ${t.name}: make my own copy`}
                >
                  Use a copy
                </button>
              </>
            )}
          </TemplateSection>
        )}
      </main>
    </div>
  );
}

interface SectionProps {
  title: string;
  items: TemplateRecord[] | null;
  list: TemplateRecord[];
  empty: string;
  children: (template: TemplateRecord) => ComponentChildren;
}

function TemplateSection({ title, items, list, empty, children }: SectionProps) {
  const id = `section-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {items === null ? (
        <p role="status">Loading…</p>
      ) : list.length === 0 ? (
        <p class="empty">{empty}</p>
      ) : (
        <ul class="cards">
          {list.map((t) => (
            <li key={t.id} class="card">
              <Thumbnail record={t} />
              <span class="card-name">{t.name}</span>
              <span class="card-meta">
                {t.width} × {t.height}
                {t.pageCount > 1 ? ` · ${t.pageCount} pages` : ''}
              </span>
              <span class="card-actions">{children(t)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Thumbnail({ record }: { record: TemplateRecord }) {
  const src = record.thumbnailUrl ? ownPath(record.thumbnailUrl) : null;
  const ratio = `${record.width} / ${record.height}`;
  return (
    <span class="thumb">
      {src ? (
        <img src={src} alt="" loading="lazy" style={{ aspectRatio: ratio }} />
      ) : (
        <span class="thumb-placeholder" style={{ aspectRatio: ratio }} aria-hidden="true" />
      )}
    </span>
  );
}
