/**
 * Variables: every key a modification can act on (the design core's `referencedVariables`), with
 * a sample value that previews the page as a render with that modification would look. Samples
 * never enter the document; the saved default (`variables`) is edited separately.
 */
import { referencedVariables } from '../../../src/engine/browser.ts';
import { useEditorState, useServices } from './context.ts';
import { CheckboxField, Section, TextField } from './fields.tsx';

export function VariablesPanel() {
  const state = useEditorState();
  const { store, actions } = useServices();
  const names = referencedVariables(state.doc);
  if (names.length === 0)
    return (
      <p class="pe-hint">
        No variables yet. Write <code>{'{{name}}'}</code> in a text, or give an element a name, to make it
        replaceable at render time.
      </p>
    );
  return (
    <div class="pe-variables">
      <CheckboxField
        label="Preview with sample values"
        value={state.previewVariables}
        disabled={false}
        onCommit={(previewVariables) => {
          store.set({ previewVariables });
          return true;
        }}
      />
      {names.map((name) => (
        <Section key={name} title={name}>
          <TextField
            label={`Sample value for ${name}`}
            value={state.samples[name] ?? ''}
            disabled={false}
            onCommit={(value) => {
              const samples = { ...state.samples };
              if (value === '') delete samples[name];
              else samples[name] = value;
              store.set({ samples, previewVariables: true });
              return true;
            }}
          />
          <TextField
            label={`Default value for ${name} (saved)`}
            value={state.doc.variables[name] ?? ''}
            disabled={state.readOnly}
            onCommit={(value) => {
              actions.setVariableDefault(name, value === '' ? null : value);
              return true;
            }}
          />
        </Section>
      ))}
    </div>
  );
}
