/**
 * The template's variables (get_template_variables) as form fields: text and image keys as text
 * inputs, colours as colour pickers when the default is a plain hex colour, visibility as a
 * checkbox. Only values that differ from the template's defaults become `modifications`.
 */

export interface TemplateVariable {
  name: string;
  kind: 'text' | 'image' | 'color' | 'visibility';
  default: string | null;
}

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

export function variablesOf(body: unknown): TemplateVariable[] {
  const list = (body as { variables?: unknown } | null)?.variables;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (item): item is TemplateVariable =>
      typeof item === 'object' && item !== null && typeof (item as TemplateVariable).name === 'string',
  );
}

function fieldFor(variable: TemplateVariable, value: string): HTMLInputElement {
  const input = document.createElement('input');
  input.name = variable.name;
  input.id = `var-${variable.name}`;
  input.dataset.kind = variable.kind;
  if (variable.kind === 'visibility') {
    input.type = 'checkbox';
    input.checked = value !== 'false';
  } else if (variable.kind === 'color' && HEX_COLOR.test(value)) {
    input.type = 'color';
    input.value = value;
  } else {
    input.type = 'text';
    input.value = value;
    if (variable.kind === 'image') input.placeholder = 'asset:… or https://…';
  }
  return input;
}

/** A fieldset of one labelled input per variable; `onChange` fires on every edit. */
export function variablesForm(
  variables: TemplateVariable[],
  current: Record<string, string>,
  onChange: () => void,
): HTMLFieldSetElement {
  const fieldset = document.createElement('fieldset');
  fieldset.className = 'variables';
  const legend = document.createElement('legend');
  legend.textContent = 'Variables';
  fieldset.append(legend);
  if (variables.length === 0) {
    const none = document.createElement('p');
    none.className = 'status';
    none.textContent = 'This template has no variables.';
    fieldset.append(none);
  }
  for (const variable of variables) {
    const row = document.createElement('div');
    row.className = `field field-${variable.kind}`;
    const input = fieldFor(variable, current[variable.name] ?? variable.default ?? '');
    const label = document.createElement('label');
    label.htmlFor = input.id;
    label.textContent = variable.name;
    input.addEventListener('input', onChange);
    input.addEventListener('change', onChange);
    row.append(label, input);
    fieldset.append(row);
  }
  return fieldset;
}

/** What the form holds now, as `modifications`: the keys whose value is not the default. */
export function modificationsOf(form: HTMLElement, variables: TemplateVariable[]): Record<string, string> {
  const modifications: Record<string, string> = {};
  for (const variable of variables) {
    const input = form.querySelector<HTMLInputElement>(`[id="var-${CSS.escape(variable.name)}"]`);
    if (!input) continue;
    const value = input.type === 'checkbox' ? String(input.checked) : input.value;
    const unchanged =
      variable.kind === 'color' // a colour input answers lower case: #FF0000 is still the default
        ? value.toLowerCase() === (variable.default ?? '').toLowerCase()
        : value === (variable.default ?? '');
    if (!unchanged) modifications[variable.name] = value;
  }
  return modifications;
}
