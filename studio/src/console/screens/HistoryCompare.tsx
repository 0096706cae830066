/**
 * Compare, in the console's history panel: what changed between two versions, or a version and the
 * draft, as the element list of `GET /v1/templates/{id}/diff` and the picture of `diff.png`.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeChange, type Side, sideName, type TemplateDiff } from '../../history/changes.ts';
import { call, callBlob } from '../client.ts';
import { ErrorNote, useAction } from '../ui.tsx';

export interface Comparison {
  from: Side;
  to: Side;
}

const sideValue = (side: Side) => String(side);
const sideOf = (value: string): Side => (value === 'draft' ? 'draft' : Number(value));

export function HistoryCompare(props: {
  workspaceId: string;
  templateId: string;
  /** Version numbers, newest first. */
  numbers: number[];
  /** The pair to compare now (a row's "Compare" sets it), or null before any. */
  asked: Comparison | null;
  onAsk(comparison: Comparison): void;
}) {
  const { workspaceId, templateId, numbers, asked } = props;
  const [from, setFrom] = useState<Side>(asked?.from ?? numbers[0] ?? 'draft');
  const [to, setTo] = useState<Side>(asked?.to ?? 'draft');
  // The answer with the pair it answers: a new pair never shows the last pair's changes.
  const [result, setResult] = useState<{ for: Comparison; diff: TemplateDiff; picture: string } | null>(null);
  const [error, busy, act] = useAction();

  useEffect(() => {
    if (!asked) return;
    setFrom(asked.from);
    setTo(asked.to);
    let live = true;
    let url: string | null = null;
    void act(async () => {
      const query = `from=${sideValue(asked.from)}&to=${sideValue(asked.to)}`;
      const base = `/v1/templates/${encodeURIComponent(templateId)}`;
      const [changes, png] = await Promise.all([
        call<TemplateDiff>('GET', `${base}/diff?${query}`, { workspaceId }),
        callBlob(`${base}/diff.png?${query}`, { workspaceId }),
      ]);
      if (!live) return;
      url = URL.createObjectURL(png);
      setResult({ for: asked, diff: changes, picture: url });
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [asked]);

  const options = [
    <option key="draft" value="draft">
      The draft
    </option>,
    ...numbers.map((n) => (
      <option key={n} value={sideValue(n)}>
        Version {n}
      </option>
    )),
  ];
  const title = asked ? `${sideName(asked.from)} → ${sideName(asked.to)}` : '';
  const shown = result && result.for === asked ? result : null;
  const diff = shown?.diff;
  const picture = shown?.picture;
  return (
    <section class="console-card" aria-labelledby="compare-title">
      <h2 id="compare-title">Compare</h2>
      <form
        class="console-inline"
        onSubmit={(event) => {
          event.preventDefault();
          props.onAsk({ from, to });
        }}
      >
        <label for="compare-from">From</label>
        <select
          id="compare-from"
          class="console-side"
          value={sideValue(from)}
          onChange={(e) => setFrom(sideOf(e.currentTarget.value))}
        >
          {options}
        </select>
        <label for="compare-to">To</label>
        <select
          id="compare-to"
          class="console-side"
          value={sideValue(to)}
          onChange={(e) => setTo(sideOf(e.currentTarget.value))}
        >
          {options}
        </select>
        <button type="submit" disabled={busy}>
          Compare
        </button>
      </form>
      <ErrorNote error={error} />
      {busy && (
        <p class="console-muted" role="status">
          Comparing…
        </p>
      )}
      {diff && asked && !busy && (
        <div class="console-compare">
          <div>
            <h3>Changes from {title}</h3>
            {diff.changes.length === 0 ? (
              <p class="console-muted">No changes: the two are the same design.</p>
            ) : (
              <ul class="console-changes" aria-label="Changes">
                {diff.changes.map((change, index) => (
                  <li key={`${index}:${change.path}`}>{describeChange(change)}</li>
                ))}
              </ul>
            )}
            {diff.truncated && <p class="console-muted">Only the first 500 changes are listed.</p>}
          </div>
          {picture && (
            <figure class="console-diff-picture">
              <img src={picture} alt={`What changed on the page from ${title}, in magenta`} />
              <figcaption class="console-muted">
                The newer side faded, its changed pixels in magenta, each changed region boxed.
              </figcaption>
            </figure>
          )}
        </div>
      )}
    </section>
  );
}
