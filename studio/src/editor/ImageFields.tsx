/**
 * An image's version 2 properties: crop (the part of the source shown, in percent of its size,
 * applied before `fit`; dragged on a small picture of the source, or typed), filters (brightness, contrast, saturation, grayscale, sepia, blur) and a
 * border following the corner radius. A filter at its neutral value is left out of the document.
 */
import type { ImageElement } from '../../../src/engine/browser.ts';
import { CropBox } from './CropBox.tsx';
import { CheckboxField, ColorField, NumberField } from './fields.tsx';

type Patch = (patch: Record<string, unknown>) => boolean;
type Filters = NonNullable<ImageElement['filters']>;
type Crop = NonNullable<ImageElement['crop']>;

/** Each filter's label, unit scale (percent or page units) and neutral value. */
const FILTERS: { key: keyof Filters; label: string; percent: boolean; neutral: number; max: number }[] = [
  { key: 'brightness', label: 'Brightness (%)', percent: true, neutral: 1, max: 1000 },
  { key: 'contrast', label: 'Contrast (%)', percent: true, neutral: 1, max: 1000 },
  { key: 'saturation', label: 'Saturation (%)', percent: true, neutral: 1, max: 1000 },
  { key: 'grayscale', label: 'Grayscale (%)', percent: true, neutral: 0, max: 100 },
  { key: 'sepia', label: 'Sepia (%)', percent: true, neutral: 0, max: 100 },
  { key: 'blur', label: 'Image blur', percent: false, neutral: 0, max: 250 },
];

const pct = (fraction: number) => Math.round(fraction * 1000) / 10;

/** The filters with one changed; undefined when every filter is neutral. */
export function withFilter(filters: Filters | undefined, key: keyof Filters, value: number, neutral: number) {
  const next: Filters = { ...filters };
  if (value === neutral) delete next[key];
  else next[key] = value;
  return Object.keys(next).length > 0 ? next : undefined;
}

export function ImageFields({ el, disabled, patch }: { el: ImageElement; disabled: boolean; patch: Patch }) {
  const d = disabled;
  const crop = el.crop;
  const setCrop = (key: keyof Crop, percent: number) => patch({ crop: { ...crop, [key]: percent / 100 } });
  return (
    <>
      <CheckboxField
        label="Crop"
        value={crop !== undefined}
        disabled={d}
        onCommit={(on) => patch({ crop: on ? { x: 0.1, y: 0.1, width: 0.8, height: 0.8 } : undefined })}
      />
      {crop && <CropBox src={el.src} crop={crop} disabled={d} onCommit={(next) => patch({ crop: next })} />}
      {crop && (
        <div class="pe-grid2">
          <NumberField
            label="Crop left (%)"
            value={pct(crop.x)}
            min={0}
            max={100}
            disabled={d}
            onCommit={(v) => setCrop('x', v)}
          />
          <NumberField
            label="Crop top (%)"
            value={pct(crop.y)}
            min={0}
            max={100}
            disabled={d}
            onCommit={(v) => setCrop('y', v)}
          />
          <NumberField
            label="Crop width (%)"
            value={pct(crop.width)}
            min={0.1}
            max={100}
            disabled={d}
            onCommit={(v) => setCrop('width', v)}
          />
          <NumberField
            label="Crop height (%)"
            value={pct(crop.height)}
            min={0.1}
            max={100}
            disabled={d}
            onCommit={(v) => setCrop('height', v)}
          />
        </div>
      )}
      <fieldset class="pe-filters">
        <legend>Filters</legend>
        <div class="pe-grid2">
          {FILTERS.map((f) => {
            const value = el.filters?.[f.key] ?? f.neutral;
            return (
              <NumberField
                key={f.key}
                label={f.label}
                value={f.percent ? pct(value) : value}
                min={0}
                max={f.max}
                step={f.percent ? 5 : 1}
                disabled={d}
                onCommit={(v) =>
                  patch({ filters: withFilter(el.filters, f.key, f.percent ? v / 100 : v, f.neutral) })
                }
              />
            );
          })}
        </div>
      </fieldset>
      <CheckboxField
        label="Border"
        value={el.stroke != null}
        disabled={d}
        onCommit={(on) =>
          patch(
            on
              ? { stroke: '#ffffff', strokeWidth: el.strokeWidth || 4 }
              : { stroke: undefined, strokeWidth: undefined },
          )
        }
      />
      {el.stroke != null && (
        <div class="pe-grid2">
          <ColorField
            label="Border colour"
            value={el.stroke}
            disabled={d}
            onCommit={(stroke) => patch({ stroke })}
          />
          <NumberField
            label="Border width"
            value={el.strokeWidth ?? 0}
            min={0}
            disabled={d}
            onCommit={(strokeWidth) => patch({ strokeWidth })}
          />
        </div>
      )}
    </>
  );
}
