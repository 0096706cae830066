/**
 * The type-specific part of the properties panel: one labelled field per property the schema
 * gives that element type (text, image, rect, ellipse, line, svg, qr). Common box properties are
 * in PropertiesPanel.
 */
import { useEffect, useState } from 'preact/hooks';
import { BUNDLED_FAMILIES, type Element } from '../../../src/engine/browser.ts';
import { useServices } from './context.ts';
import {
  CheckboxField,
  ColorField,
  NumberField,
  Section,
  SelectField,
  TextAreaField,
  TextField,
} from './fields.tsx';
import { ImageSourceField } from './ImageSourceField.tsx';

type Patch = (patch: Record<string, unknown>) => boolean;

const WEIGHTS = ['100', '200', '300', '400', '500', '600', '700', '800', '900'] as const;

/** The workspace's uploaded families, then the bundled ones, once the shell has listed them. */
function useFontFamilies(): readonly string[] {
  const { options } = useServices();
  const [families, setFamilies] = useState<readonly string[]>(BUNDLED_FAMILIES);
  useEffect(() => {
    let live = true;
    options.fonts.ready.then(
      (aliases) => {
        const uploaded = [...new Set(aliases.map(([family]) => family))];
        if (live) setFamilies([...uploaded, ...BUNDLED_FAMILIES.filter((f) => !uploaded.includes(f))]);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [options.fonts]);
  return families;
}

export function ElementFields({ el, disabled, patch }: { el: Element; disabled: boolean; patch: Patch }) {
  const d = disabled;
  const known = useFontFamilies();
  switch (el.type) {
    case 'text': {
      const families: readonly string[] = known.includes(el.fontFamily) ? known : [el.fontFamily, ...known];
      return (
        <Section title="Text">
          <TextAreaField label="Text" value={el.text} disabled={d} onCommit={(text) => patch({ text })} />
          <SelectField
            label="Font family"
            value={el.fontFamily}
            options={families}
            disabled={d}
            onCommit={(fontFamily) => patch({ fontFamily })}
          />
          <NumberField
            label="Font size"
            value={el.fontSize}
            min={1}
            disabled={d}
            onCommit={(fontSize) => patch({ fontSize })}
          />
          <SelectField
            label="Font weight"
            value={String(el.fontWeight)}
            options={WEIGHTS}
            disabled={d}
            onCommit={(w) => patch({ fontWeight: Number(w) })}
          />
          <SelectField
            label="Font style"
            value={el.fontStyle}
            options={['normal', 'italic'] as const}
            disabled={d}
            onCommit={(fontStyle) => patch({ fontStyle })}
          />
          <ColorField
            label="Text colour"
            value={el.color}
            disabled={d}
            onCommit={(color) => patch({ color })}
          />
          <SelectField
            label="Align"
            value={el.align}
            options={['left', 'center', 'right', 'justify'] as const}
            disabled={d}
            onCommit={(align) => patch({ align })}
          />
          <SelectField
            label="Vertical align"
            value={el.verticalAlign}
            options={['top', 'middle', 'bottom'] as const}
            disabled={d}
            onCommit={(verticalAlign) => patch({ verticalAlign })}
          />
          <NumberField
            label="Line height"
            value={el.lineHeight}
            step={0.05}
            disabled={d}
            onCommit={(lineHeight) => patch({ lineHeight })}
          />
          <NumberField
            label="Letter spacing"
            value={el.letterSpacing}
            step={0.5}
            disabled={d}
            onCommit={(letterSpacing) => patch({ letterSpacing })}
          />
          <SelectField
            label="Auto-fit"
            value={el.autoFit}
            options={['none', 'shrink'] as const}
            disabled={d}
            onCommit={(autoFit) => patch({ autoFit })}
          />
          <NumberField
            label="Minimum font size"
            value={el.minFontSize}
            min={1}
            disabled={d}
            onCommit={(minFontSize) => patch({ minFontSize })}
          />
          <NumberField
            label="Max lines (0 = no limit)"
            value={el.maxLines ?? 0}
            min={0}
            disabled={d}
            onCommit={(n) => patch({ maxLines: n <= 0 ? null : Math.round(n) })}
          />
          <SelectField
            label="Text transform"
            value={el.textTransform}
            options={['none', 'uppercase', 'lowercase', 'capitalize'] as const}
            disabled={d}
            onCommit={(textTransform) => patch({ textTransform })}
          />
        </Section>
      );
    }
    case 'image':
      return (
        <Section title="Image">
          <ImageSourceField value={el.src} disabled={d} onCommit={(src) => patch({ src })} />
          <SelectField
            label="Fit"
            value={el.fit}
            options={['cover', 'contain', 'fill'] as const}
            disabled={d}
            onCommit={(fit) => patch({ fit })}
          />
          <CornerRadius radius={el.cornerRadius} disabled={d} patch={patch} />
        </Section>
      );
    case 'rect':
    case 'ellipse':
      return (
        <Section title={el.type === 'rect' ? 'Rectangle' : 'Ellipse'}>
          <ColorField label="Fill" value={el.fill} disabled={d} onCommit={(fill) => patch({ fill })} />
          <CheckboxField
            label="Stroke"
            value={el.stroke !== null}
            disabled={d}
            onCommit={(on) =>
              patch({
                stroke: on ? '#000000' : null,
                strokeWidth: on && el.strokeWidth === 0 ? 2 : el.strokeWidth,
              })
            }
          />
          {el.stroke !== null && <StrokeColour stroke={el.stroke} disabled={d} patch={patch} />}
          <StrokeWidth width={el.strokeWidth} disabled={d} patch={patch} />
          {el.type === 'rect' && <CornerRadius radius={el.cornerRadius} disabled={d} patch={patch} />}
        </Section>
      );
    case 'line':
      return (
        <Section title="Line">
          <NumberField
            label="Start X"
            value={el.x}
            disabled={d}
            onCommit={(x) => patch({ x, width: el.x + el.width - x })}
          />
          <NumberField
            label="Start Y"
            value={el.y}
            disabled={d}
            onCommit={(y) => patch({ y, height: el.y + el.height - y })}
          />
          <NumberField
            label="End X"
            value={el.x + el.width}
            disabled={d}
            onCommit={(x2) => patch({ width: x2 - el.x })}
          />
          <NumberField
            label="End Y"
            value={el.y + el.height}
            disabled={d}
            onCommit={(y2) => patch({ height: y2 - el.y })}
          />
          <StrokeColour stroke={el.stroke} disabled={d} patch={patch} />
          <StrokeWidth width={el.strokeWidth} disabled={d} patch={patch} />
          <TextField
            label="Dash pattern (e.g. 10 5)"
            value={el.dash.join(' ')}
            disabled={d}
            onCommit={(text) =>
              patch({
                dash:
                  text.trim() === ''
                    ? []
                    : text
                        .trim()
                        .split(/[\s,]+/)
                        .map(Number),
              })
            }
          />
        </Section>
      );
    case 'svg':
      return (
        <Section title="SVG">
          <TextAreaField label="SVG markup" value={el.svg} disabled={d} onCommit={(svg) => patch({ svg })} />
        </Section>
      );
    case 'qr':
      return (
        <Section title="QR code">
          <TextField label="QR value" value={el.value} disabled={d} onCommit={(value) => patch({ value })} />
          <ColorField
            label="QR colour"
            value={el.color}
            disabled={d}
            onCommit={(color) => patch({ color })}
          />
          <ColorField
            label="QR background"
            value={el.background}
            disabled={d}
            onCommit={(background) => patch({ background })}
          />
        </Section>
      );
  }
}

/** Fields several element types share. */
type Shared<T> = T & { disabled: boolean; patch: Patch };

function StrokeColour({ stroke, disabled, patch }: Shared<{ stroke: string }>) {
  return (
    <ColorField
      label="Stroke colour"
      value={stroke}
      disabled={disabled}
      onCommit={(s) => patch({ stroke: s })}
    />
  );
}

function StrokeWidth({ width, disabled, patch }: Shared<{ width: number }>) {
  return (
    <NumberField
      label="Stroke width"
      value={width}
      min={0}
      disabled={disabled}
      onCommit={(strokeWidth) => patch({ strokeWidth })}
    />
  );
}

function CornerRadius({ radius, disabled, patch }: Shared<{ radius: number }>) {
  return (
    <NumberField
      label="Corner radius"
      value={radius}
      min={0}
      disabled={disabled}
      onCommit={(cornerRadius) => patch({ cornerRadius })}
    />
  );
}
