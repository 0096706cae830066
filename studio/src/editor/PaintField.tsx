/**
 * A paint control wherever a fill is taken (shape fill, text colour, page background): solid
 * colour, linear gradient (with its angle) or radial gradient, and the gradient's stops (2-16),
 * each with a position and a colour, added and removed with labelled buttons. A preview strip
 * shows the gradient as CSS draws it. Each change commits once (one undo step).
 */
import type { DocumentPaint, Gradient } from '../../../src/engine/browser.ts';
import { ColorField, NumberField, SelectField } from './fields.tsx';
import {
  addStop,
  cssPaint,
  MAX_STOPS,
  MIN_STOPS,
  type PaintKind,
  paintKind,
  removeStop,
  setStop,
  withKind,
} from './paint-ops.ts';

type Commit = (paint: DocumentPaint) => boolean | undefined;

const KIND_LABELS: Record<PaintKind, string> = {
  solid: 'Solid colour',
  linear: 'Linear gradient',
  radial: 'Radial gradient',
};

export function PaintField({
  label,
  value,
  disabled,
  onCommit,
  extraKinds,
}: {
  label: string;
  value: DocumentPaint;
  disabled: boolean;
  onCommit: Commit;
  /** More choices in the kind select (the page background's image), handled by the caller. */
  extraKinds?: { value: string; label: string; onPick(): void };
}) {
  const kind = paintKind(value);
  const options = extraKinds
    ? ([...Object.keys(KIND_LABELS), extraKinds.value] as string[])
    : Object.keys(KIND_LABELS);
  const labels: Record<string, string> = {
    ...KIND_LABELS,
    ...(extraKinds ? { [extraKinds.value]: extraKinds.label } : {}),
  };
  return (
    <div class="pe-paint">
      <SelectField
        label={`${label} type`}
        value={kind as string}
        options={options}
        labels={labels}
        disabled={disabled}
        onCommit={(next) => {
          if (extraKinds && next === extraKinds.value) {
            extraKinds.onPick();
            return true;
          }
          return onCommit(withKind(value, next as PaintKind));
        }}
      />
      {typeof value === 'string' ? (
        <ColorField label={label} value={value} disabled={disabled} onCommit={onCommit} />
      ) : (
        <GradientFields label={label} gradient={value} disabled={disabled} onCommit={onCommit} />
      )}
    </div>
  );
}

function GradientFields({
  label,
  gradient,
  disabled,
  onCommit,
}: {
  label: string;
  gradient: Gradient;
  disabled: boolean;
  onCommit: Commit;
}) {
  const count = gradient.stops.length;
  return (
    <>
      <div class="pe-gradient-preview" style={{ background: cssPaint(gradient) }} aria-hidden="true" />
      {gradient.type === 'linear' && (
        <NumberField
          label={`${label} angle (°)`}
          value={gradient.angle}
          min={-360}
          max={360}
          step={15}
          disabled={disabled}
          onCommit={(angle) => onCommit({ ...gradient, angle })}
        />
      )}
      <fieldset class="pe-stops">
        <legend>
          {label} stops ({count} of {MAX_STOPS})
        </legend>
        {gradient.stops.map((stop, i) => (
          // Stops have no identity of their own; their order is their offset order.
          <div class="pe-stop" key={i}>
            <ColorField
              label={`Stop ${i + 1} colour`}
              value={stop.color}
              disabled={disabled}
              onCommit={(color) => onCommit(setStop(gradient, i, { color }))}
            />
            <NumberField
              label={`Stop ${i + 1} position (%)`}
              value={Math.round(stop.offset * 1000) / 10}
              min={0}
              max={100}
              disabled={disabled}
              onCommit={(percent) => onCommit(setStop(gradient, i, { offset: percent / 100 }))}
            />
            <button
              type="button"
              class="pe-icon"
              aria-label={`Remove stop ${i + 1} of ${label}`}
              title="Remove stop"
              disabled={disabled || count <= MIN_STOPS}
              onClick={() => onCommit(removeStop(gradient, i))}
            >
              ×
            </button>
          </div>
        ))}
        <button
          type="button"
          disabled={disabled || count >= MAX_STOPS}
          aria-label={`Add stop to ${label}`}
          onClick={() => onCommit(addStop(gradient))}
        >
          Add stop
        </button>
      </fieldset>
    </>
  );
}
