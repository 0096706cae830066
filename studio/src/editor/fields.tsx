/**
 * Labelled form fields for the panels. Each commits on `change` (blur, Enter, a picked option),
 * never per keystroke, so one field edit is one undo step and one onChange. A refused value puts
 * the field back to the document's value.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

interface Base {
  label: string;
  disabled: boolean;
}

type Commit<T> = (value: T) => boolean | undefined;

type Typed = HTMLInputElement | HTMLTextAreaElement;

/**
 * What the person has typed and not committed yet. A field shows the document's value, so without
 * this any re-render while they type (the font list arriving, the timeline's clock ticking) would
 * put the document's value back into the field, and the change on leaving it would then commit
 * nothing: the typing silently lost. So the draft is shown until `change` commits it through
 * `accept` (a refusal puts the document's value back). A blur without a change (the window lost
 * the focus) keeps it; a field removed with a draft (the person pressed another element, which
 * re-keys the panel) commits it on the way out, to what it was typed for. Spread the result on the
 * input.
 */
export function useDraft(shown: string, accept: (text: string) => boolean) {
  const [draft, setDraft] = useState<string | null>(null);
  const latest = useRef({ draft, shown, accept });
  latest.current = { draft, shown, accept };
  useEffect(
    () => () => {
      const left = latest.current;
      if (left.draft !== null && left.draft !== left.shown) left.accept(left.draft);
    },
    [],
  );
  return {
    value: draft ?? shown,
    onInput: (event: JSX.TargetedEvent<Typed>) => setDraft(event.currentTarget.value),
    onBlur: (event: JSX.TargetedFocusEvent<Typed>) => {
      if (event.currentTarget.value === shown) setDraft(null);
    },
    onChange: (event: JSX.TargetedEvent<Typed>) => {
      const input = event.currentTarget;
      latest.current.draft = null;
      setDraft(null);
      if (!accept(input.value)) input.value = shown;
    },
  };
}

function Row({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="pe-field">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}

export function NumberField(
  props: Base & { value: number; onCommit: Commit<number>; step?: number; min?: number; max?: number },
) {
  const id = useId();
  const draft = useDraft(String(Math.round(props.value * 100) / 100), (text) => {
    const value = Number.parseFloat(text);
    return Number.isFinite(value) && props.onCommit(value) !== false;
  });
  return (
    <Row id={id} label={props.label}>
      <input
        id={id}
        type="number"
        step={props.step ?? 1}
        min={props.min}
        max={props.max}
        disabled={props.disabled}
        {...draft}
      />
    </Row>
  );
}

export function TextField(props: Base & { value: string; onCommit: Commit<string>; placeholder?: string }) {
  const id = useId();
  const draft = useDraft(props.value, (text) => props.onCommit(text) !== false);
  return (
    <Row id={id} label={props.label}>
      <input id={id} type="text" placeholder={props.placeholder} disabled={props.disabled} {...draft} />
    </Row>
  );
}

export function TextAreaField(props: Base & { value: string; onCommit: Commit<string> }) {
  const id = useId();
  const draft = useDraft(props.value, (text) => props.onCommit(text) !== false);
  return (
    <Row id={id} label={props.label}>
      <textarea id={id} rows={3} disabled={props.disabled} {...draft} />
    </Row>
  );
}

/** `#rrggbb` for the native picker, which knows no alpha or rgb() syntax; null when not hex. */
function pickerValue(color: string): string | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color);
  const digits = m?.[1];
  if (!digits) return null;
  if (digits.length === 3)
    return `#${digits
      .split('')
      .map((d) => d + d)
      .join('')}`;
  return `#${digits.slice(0, 6)}`;
}

/** A colour as text (any syntax the schema takes) with a swatch picker beside it. */
export function ColorField(props: Base & { value: string; onCommit: Commit<string> }) {
  const id = useId();
  const draft = useDraft(props.value, (text) => props.onCommit(text.trim()) !== false);
  const swatch = pickerValue(props.value);
  const alpha = /^#[0-9a-f]{8}$/i.test(props.value) ? props.value.slice(7) : '';
  return (
    <Row id={id} label={props.label}>
      <span class="pe-color">
        <input
          type="color"
          aria-label={`${props.label} picker`}
          value={swatch ?? '#000000'}
          disabled={props.disabled}
          onChange={(event) => props.onCommit(`${event.currentTarget.value}${alpha}`)}
        />
        <input id={id} type="text" disabled={props.disabled} {...draft} />
      </span>
    </Row>
  );
}

export function SelectField<T extends string>(
  props: Base & { value: T; options: readonly T[]; onCommit: Commit<T>; labels?: Partial<Record<T, string>> },
) {
  const id = useId();
  return (
    <Row id={id} label={props.label}>
      <select
        id={id}
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onCommit(event.currentTarget.value as T)}
      >
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.labels?.[option] ?? option}
          </option>
        ))}
      </select>
    </Row>
  );
}

export function CheckboxField(props: Base & { value: boolean; onCommit: Commit<boolean> }) {
  const id = useId();
  return (
    <div class="pe-field pe-check">
      <input
        id={id}
        type="checkbox"
        checked={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onCommit(event.currentTarget.checked)}
      />
      <label for={id}>{props.label}</label>
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="pe-section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}
