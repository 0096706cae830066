/**
 * The type-specific part of the properties panel: one labelled field per property the schema
 * gives that element type (text, image, rect, ellipse, line, svg, qr, barcode, video, group). Common box
 * properties and effects are in PropertiesPanel and EffectFields.
 */
import { useEffect, useState } from 'preact/hooks';
import { BUNDLED_FAMILIES, barcodeFormats, type Element } from '../../../src/engine/browser.ts';
import { formatPatch } from './barcode-ops.ts';
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
import { ImageFields } from './ImageFields.tsx';
import { ImageSourceField } from './ImageSourceField.tsx';
import { PaintField } from './PaintField.tsx';
import { contentFields, replaceText, spansOf, textOf } from './spans.ts';
import { VideoFields } from './VideoFields.tsx';

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
          <TextAreaField
            label="Text"
            value={el.spans ? textOf(el.spans) : el.text}
            disabled={d}
            onCommit={(text) => patch(contentFields(replaceText(spansOf(el), text)))}
          />
          {el.spans && (
            <p class="pe-hint">
              Styled text: double-click it on the page (or press Enter) to style a selection.
            </p>
          )}
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
          <PaintField
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
          <CheckboxField
            label="Outline"
            value={el.stroke !== undefined}
            disabled={d}
            onCommit={(on) => patch({ stroke: on ? { color: '#ffffff', width: 2 } : undefined })}
          />
          {el.stroke && (
            <div class="pe-grid2">
              <ColorField
                label="Outline colour"
                value={el.stroke.color}
                disabled={d}
                onCommit={(color) => patch({ stroke: { ...el.stroke, color } })}
              />
              <NumberField
                label="Outline width"
                value={el.stroke.width}
                min={0}
                disabled={d}
                onCommit={(width) => patch({ stroke: { ...el.stroke, width } })}
              />
            </div>
          )}
          <CheckboxField
            label="Highlight behind lines"
            value={el.highlight !== undefined}
            disabled={d}
            onCommit={(on) =>
              patch({ highlight: on ? { color: '#fde68a', padding: 4, cornerRadius: 4 } : undefined })
            }
          />
          {el.highlight && (
            <div class="pe-grid2">
              <ColorField
                label="Highlight colour"
                value={el.highlight.color}
                disabled={d}
                onCommit={(color) => patch({ highlight: { ...el.highlight, color } })}
              />
              <NumberField
                label="Highlight padding"
                value={el.highlight.padding}
                min={0}
                disabled={d}
                onCommit={(padding) => patch({ highlight: { ...el.highlight, padding } })}
              />
              <NumberField
                label="Highlight corner radius"
                value={el.highlight.cornerRadius}
                min={0}
                disabled={d}
                onCommit={(cornerRadius) => patch({ highlight: { ...el.highlight, cornerRadius } })}
              />
            </div>
          )}
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
          <ImageFields el={el} disabled={d} patch={patch} />
        </Section>
      );
    case 'rect':
    case 'ellipse':
      return (
        <Section title={el.type === 'rect' ? 'Rectangle' : 'Ellipse'}>
          <PaintField label="Fill" value={el.fill} disabled={d} onCommit={(fill) => patch({ fill })} />
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
    case 'barcode':
      return (
        <Section title="Barcode">
          <SelectField
            label="Barcode format"
            value={el.format}
            options={barcodeFormats}
            labels={BARCODE_LABELS}
            disabled={d}
            onCommit={(format) => patch(formatPatch(el, format))}
          />
          <TextField
            label="Barcode value"
            value={el.value}
            disabled={d}
            onCommit={(value) => patch({ value })}
          />
          <p class="pe-hint">{BARCODE_HINTS[el.format]}</p>
          <ColorField
            label="Bar colour"
            value={el.color}
            disabled={d}
            onCommit={(color) => patch({ color })}
          />
          <ColorField
            label="Barcode background"
            value={el.background}
            disabled={d}
            onCommit={(background) => patch({ background })}
          />
          <CheckboxField
            label="Show the value as text"
            value={el.showText}
            disabled={d}
            onCommit={(showText) => patch({ showText })}
          />
        </Section>
      );
    case 'video':
      return <VideoFields el={el} disabled={d} patch={patch} />;
    case 'group':
      return (
        <GroupFields
          id={el.id}
          count={el.elements.length}
          clip={el.clip ?? false}
          disabled={d}
          patch={patch}
        />
      );
  }
}

const BARCODE_LABELS: Record<(typeof barcodeFormats)[number], string> = {
  code128: 'Code 128',
  ean13: 'EAN-13',
  upca: 'UPC-A',
  code39: 'Code 39',
  itf14: 'ITF-14',
  datamatrix: 'Data Matrix',
  pdf417: 'PDF417',
};

const BARCODE_HINTS: Record<(typeof barcodeFormats)[number], string> = {
  code128: 'Any text in ASCII.',
  ean13: '12 digits (the check digit is added) or 13 with a correct check digit.',
  upca: '11 digits, or 12 with a correct check digit.',
  code39: 'Capital letters, digits, space and - . $ / + %.',
  itf14: '13 digits, or 14 with a correct check digit.',
  datamatrix: 'Any text; a 2D symbol with no text under it.',
  pdf417: 'Any text; a 2D symbol with no text under it.',
};

function GroupFields({
  id,
  count,
  clip,
  disabled,
  patch,
}: {
  id: string;
  count: number;
  clip: boolean;
  disabled: boolean;
  patch: Patch;
}) {
  const { actions } = useServices();
  return (
    <Section title="Group">
      <p class="pe-hint">
        {count} element{count === 1 ? '' : 's'}. Double-click the group (or press Enter) to select inside it;
        Escape leaves it.
      </p>
      <CheckboxField
        label="Clip contents to the group box"
        value={clip}
        disabled={disabled}
        onCommit={(on) => patch({ clip: on ? true : undefined })}
      />
      <div class="pe-row">
        <button type="button" onClick={() => actions.enterGroup(id)}>
          Select inside
        </button>
        <button type="button" disabled={disabled} onClick={() => actions.ungroup()}>
          Ungroup
        </button>
      </div>
    </Section>
  );
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
