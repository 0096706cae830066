/**
 * What a template takes: every modification key that acts on its document, with its kind, its
 * default and the boxes it fills (docs/variables.md). The keys are exactly those
 * `applyModifications` acts on (src/design/modifications.ts): placeholders in text, the names of
 * elements with a primary property, and `<name>.visible` / `<name>.color` on named elements. An
 * agent or a form builder reads this instead of the design document. Pure.
 */
import type { Element, TextElement } from './elements.ts';
import { primaryProperty } from './modifications.ts';
import type { DesignDocument } from './schema.ts';
import { walkElements } from './tree.ts';

/** How a value is read: text, an image source, a colour, or "true"/"false" for visibility. */
export type VariableKind = 'text' | 'image' | 'color' | 'visibility';

export interface VariableTarget {
  pageId: string;
  elementId: string;
  elementType: Element['type'];
  /** The property the value sets: `text` (a placeholder in it, or the whole text), `src`, `fill`, … */
  property: string;
  /** The element's box in design units: what a value must fit. */
  box: { width: number; height: number };
  /** For text: the size it is drawn at and how far auto-fit may shrink it. */
  text?: {
    fontFamily: string;
    fontSize: number;
    autoFit: 'none' | 'shrink';
    minFontSize: number;
    maxLines: number | null;
  };
}

export interface TemplateVariable {
  name: string;
  kind: VariableKind;
  /** What renders without a value: the document's default, or the element's own property. */
  default: string | null;
  targets: VariableTarget[];
}

const KIND_OF_PRIMARY: Record<keyof typeof primaryProperty, VariableKind> = {
  text: 'text',
  image: 'image',
  rect: 'color',
  ellipse: 'color',
  qr: 'text',
  barcode: 'text',
};
const COLOR_PROPERTY_TYPES: ReadonlySet<string> = new Set(['text', 'qr', 'barcode']);
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

const hasPrimary = (type: string): type is keyof typeof primaryProperty =>
  Object.hasOwn(primaryProperty, type);

function textFacts(element: TextElement): VariableTarget['text'] {
  return {
    fontFamily: element.fontFamily,
    fontSize: element.fontSize,
    autoFit: element.autoFit,
    minFontSize: Math.min(element.minFontSize, element.fontSize),
    maxLines: element.maxLines,
  };
}

function placeholdersIn(element: TextElement): Set<string> {
  const names = new Set<string>();
  for (const text of element.spans ? element.spans.map((span) => span.text) : [element.text])
    for (const match of text.matchAll(PLACEHOLDER)) if (match[1]) names.add(match[1]);
  return names;
}

function primaryValue(element: Element): string | null {
  const value = (element as unknown as Record<string, unknown>)[
    primaryProperty[element.type as keyof typeof primaryProperty]
  ];
  return typeof value === 'string' ? value : null;
}

/** The template's variables, sorted by name (code-unit order, as `referencedVariables`). */
export function templateVariables(doc: DesignDocument): TemplateVariable[] {
  const byName = new Map<string, TemplateVariable>();
  const entry = (name: string, kind: VariableKind, fallback: string | null): TemplateVariable => {
    let variable = byName.get(name);
    if (!variable) {
      variable = { name, kind, default: fallback, targets: [] };
      byName.set(name, variable);
    }
    return variable;
  };
  for (const page of doc.pages) {
    for (const { element } of walkElements(page.elements)) {
      const target = (property: string): VariableTarget => ({
        pageId: page.id,
        elementId: element.id,
        elementType: element.type,
        property,
        box: { width: element.width, height: element.height },
        ...(element.type === 'text' ? { text: textFacts(element) } : {}),
      });
      if (element.type === 'text')
        for (const name of placeholdersIn(element))
          entry(
            name,
            'text',
            Object.hasOwn(doc.variables, name) ? (doc.variables[name] ?? null) : null,
          ).targets.push(target('text'));
      if (!element.name) continue;
      if (hasPrimary(element.type))
        entry(element.name, KIND_OF_PRIMARY[element.type], primaryValue(element)).targets.push(
          target(primaryProperty[element.type]),
        );
      entry(`${element.name}.visible`, 'visibility', String(element.visible)).targets.push(target('visible'));
      if (COLOR_PROPERTY_TYPES.has(element.type)) {
        const color = (element as { color?: unknown }).color;
        entry(`${element.name}.color`, 'color', typeof color === 'string' ? color : null).targets.push(
          target('color'),
        );
      }
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
