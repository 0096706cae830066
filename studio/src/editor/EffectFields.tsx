/**
 * Effects every element takes (design document version 2): a drop shadow (on/off, colour, blur,
 * offsets), a blur radius and the two flips. Turning an effect off removes its field, so a
 * document without effects stays as version 1 wrote it.
 */
import type { Element } from '../../../src/engine/browser.ts';
import { CheckboxField, ColorField, NumberField, Section } from './fields.tsx';

type Patch = (patch: Record<string, unknown>) => boolean;

const DEFAULT_SHADOW = { color: '#00000059', blur: 12, offsetX: 0, offsetY: 6 };

export function EffectFields({ el, disabled, patch }: { el: Element; disabled: boolean; patch: Patch }) {
  const d = disabled;
  const shadow = el.shadow;
  return (
    <Section title="Effects">
      <CheckboxField
        label="Drop shadow"
        value={shadow !== undefined}
        disabled={d}
        onCommit={(on) => patch({ shadow: on ? DEFAULT_SHADOW : undefined })}
      />
      {shadow && (
        <>
          <ColorField
            label="Shadow colour"
            value={shadow.color}
            disabled={d}
            onCommit={(color) => patch({ shadow: { ...shadow, color } })}
          />
          <div class="pe-grid2">
            <NumberField
              label="Shadow blur"
              value={shadow.blur}
              min={0}
              disabled={d}
              onCommit={(blur) => patch({ shadow: { ...shadow, blur } })}
            />
            <NumberField
              label="Shadow offset X"
              value={shadow.offsetX}
              disabled={d}
              onCommit={(offsetX) => patch({ shadow: { ...shadow, offsetX } })}
            />
            <NumberField
              label="Shadow offset Y"
              value={shadow.offsetY}
              disabled={d}
              onCommit={(offsetY) => patch({ shadow: { ...shadow, offsetY } })}
            />
          </div>
        </>
      )}
      <NumberField
        label="Blur"
        value={el.blur ?? 0}
        min={0}
        disabled={d}
        onCommit={(blur) => patch({ blur: blur > 0 ? blur : undefined })}
      />
      <CheckboxField
        label="Flip horizontally"
        value={el.flipX ?? false}
        disabled={d}
        onCommit={(on) => patch({ flipX: on ? true : undefined })}
      />
      <CheckboxField
        label="Flip vertically"
        value={el.flipY ?? false}
        disabled={d}
        onCommit={(on) => patch({ flipY: on ? true : undefined })}
      />
    </Section>
  );
}
