/**
 * Modifications: variable name → string value, applied to a stored document before rendering.
 * `{{name}}` in a text element's text becomes the value (else the document's `variables` default,
 * else stays as written; in spans too, each keeping its style); an element whose `name` equals a
 * key takes the value as its primary property, and a key `<name>.visible|color|fill` sets that
 * property (version 2). Groups are walked: names reach nested elements. Pure: returns a new document and reports a value that does not fit its property as an
 * issue at `modifications.<key>`, never by throwing.
 */
import { z } from 'zod';
import { formatIssuePath, type ValidationIssue } from '../core/errors.ts';
import { designBounds } from './bounds.ts';
import { colorSchema } from './color.ts';
import type { Element, TextElement } from './elements.ts';
import { imageSrcSchema } from './image-src.ts';
import type { DesignDocument } from './schema.ts';
import { mapElements, pageElements } from './tree.ts';

export interface ModificationLimits {
  maxKeys: number;
  maxKeyLength: number;
  maxValueLength: number;
}

export const defaultModificationLimits: ModificationLimits = Object.freeze({
  maxKeys: 100,
  maxKeyLength: 200,
  maxValueLength: 10_000,
});

export function createModificationsSchema(limits: ModificationLimits = defaultModificationLimits) {
  return z
    .record(z.string().min(1).max(limits.maxKeyLength), z.string().max(limits.maxValueLength))
    .refine((mods) => Object.keys(mods).length <= limits.maxKeys, {
      error: `at most ${limits.maxKeys} modifications`,
    });
}

export const modificationsSchema = createModificationsSchema();
export type Modifications = Record<string, string>;

export type ModificationResult =
  | { ok: true; document: DesignDocument }
  | { ok: false; issues: ValidationIssue[] };

// `{{name}}` or `{{ name }}`; the name is everything between the braces, trimmed.
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The property a named element's value replaces, by element type; other types have none. */
export const primaryProperty = {
  text: 'text',
  image: 'src',
  rect: 'fill',
  ellipse: 'fill',
  qr: 'value',
  barcode: 'value',
} as const;

/**
 * Properties a key `<name>.<property>` sets on the named elements (version 2), with the value's
 * schema and which element types have it. Other suffixes are unknown keys, ignored like any other.
 */
const propertyModifications = {
  visible: {
    schema: z.enum(['true', 'false'], { error: 'must be "true" or "false"' }),
    types: null,
  },
  color: { schema: colorSchema, types: ['text', 'qr', 'barcode'] },
  fill: { schema: colorSchema, types: ['rect', 'ellipse'] },
} as const;
type PropertyName = keyof typeof propertyModifications;

const valueSchemas: Record<PrimaryType, z.ZodType<string>> = {
  text: z.string().max(designBounds.textLength),
  image: imageSrcSchema,
  rect: colorSchema,
  ellipse: colorSchema,
  qr: z.string().min(1).max(designBounds.qrValueLength),
  barcode: z.string().min(1).max(designBounds.barcodeValueLength),
};

type PrimaryType = keyof typeof primaryProperty;
const hasPrimary = (type: string): type is PrimaryType => Object.hasOwn(primaryProperty, type);
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const own = (record: Record<string, string>, key: string): string | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** Replaces every placeholder in one pass; a value is never scanned for further placeholders. */
export function expandPlaceholders(text: string, lookup: (name: string) => string | undefined): string {
  return text.replace(PLACEHOLDER, (match: string, name: string) => (name ? (lookup(name) ?? match) : match));
}

/**
 * The length `expandPlaceholders` would produce, computed without building the string: a text of
 * 10,000 characters can hold 2,000 placeholders, each worth 10,000 characters, so the expanded
 * size must be known (and refused) before a single copy is made.
 */
function expandedLength(text: string, lookup: (name: string) => string | undefined): number {
  let length = text.length;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const value = match[1] ? lookup(match[1]) : undefined;
    if (value !== undefined) length += value.length - match[0].length;
  }
  return length;
}

interface Context {
  mods: Record<string, string>;
  variables: Record<string, string>;
  issues: ValidationIssue[];
  reported: Set<string>;
  /** Characters of text still allowed in this document (designBounds.documentText). */
  textBudget: number;
  budgetReported: boolean;
}

/** Spends `length` characters of the document's budget; false (with an issue) when over it. */
function spendText(length: number, path: PropertyKey[], ctx: Context): boolean {
  if (length > designBounds.textLength) {
    ctx.issues.push({
      path: formatIssuePath([...path, 'text']),
      message: `would be ${length} characters after modifications; the limit is ${designBounds.textLength}`,
    });
    return false;
  }
  ctx.textBudget -= length;
  if (ctx.textBudget >= 0) return true;
  if (!ctx.budgetReported) {
    ctx.budgetReported = true;
    ctx.issues.push({
      path: formatIssuePath([...path, 'text']),
      message: `takes the document's text over ${designBounds.documentText} characters after modifications`,
    });
  }
  return false;
}

function namedValue(element: Element, ctx: Context): string | undefined {
  const type = element.type;
  if (element.name === undefined || !hasPrimary(type)) return undefined;
  const value = own(ctx.mods, element.name);
  if (value === undefined) return undefined;
  const schema = valueSchemas[type];
  const parsed = typeof value === 'string' ? schema.safeParse(value) : null;
  if (parsed?.success) return parsed.data;
  if (!ctx.reported.has(element.name)) {
    ctx.reported.add(element.name);
    const why = parsed ? (parsed.error.issues[0]?.message ?? 'is not valid') : 'must be a string';
    const property = primaryProperty[type];
    ctx.issues.push({
      path: formatIssuePath(['modifications', element.name]),
      message: `${why} (the ${property} of element "${element.id}")`,
    });
  }
  return undefined;
}

/** Fills placeholders in a text element's text or in each of its spans (each keeps its style). */
function expandText(element: TextElement, path: PropertyKey[], ctx: Context): TextElement {
  const lookup = (name: string) => own(ctx.mods, name) ?? own(ctx.variables, name);
  const parts = element.spans ? element.spans.map((span) => span.text) : [element.text];
  // Measure first, build only what fits: nothing large is allocated for a refused document.
  const length = parts.reduce((sum, text) => sum + expandedLength(text, lookup), 0);
  if (!spendText(length, path, ctx) || ctx.issues.length > 0) return element;
  if (!element.spans) {
    const text = expandPlaceholders(element.text, lookup);
    return text === element.text ? element : { ...element, text };
  }
  const spans = element.spans.map((span) => {
    const text = expandPlaceholders(span.text, lookup);
    return text === span.text ? span : { ...span, text };
  });
  return spans.every((span, i) => span === element.spans?.[i]) ? element : { ...element, spans };
}

/** A named text element's new content: plain text, or one span in the first span's style. */
function replaceText(element: TextElement, value: string, path: PropertyKey[], ctx: Context): TextElement {
  if (!spendText(value.length, path, ctx)) return element;
  const first = element.spans?.[0];
  return first ? { ...element, spans: [{ ...first, text: value }] } : { ...element, text: value };
}

function applyPrimary(element: Element, path: PropertyKey[], ctx: Context): Element {
  const value = namedValue(element, ctx);
  switch (element.type) {
    case 'text':
      return value !== undefined ? replaceText(element, value, path, ctx) : expandText(element, path, ctx);
    case 'image':
      return value === undefined ? element : { ...element, src: value };
    case 'rect':
    case 'ellipse':
      return value === undefined ? element : { ...element, fill: value };
    case 'qr':
    case 'barcode':
      return value === undefined ? element : { ...element, value };
    default:
      return element;
  }
}

/** The value of `<name>.<property>` for this element, checked; undefined when absent or invalid. */
function propertyValue(element: Element, property: PropertyName, ctx: Context): string | undefined {
  const rule = propertyModifications[property];
  if (element.name === undefined) return undefined;
  if (rule.types !== null && !(rule.types as readonly string[]).includes(element.type)) return undefined;
  const key = `${element.name}.${property}`;
  const value = own(ctx.mods, key);
  if (value === undefined) return undefined;
  const parsed = typeof value === 'string' ? rule.schema.safeParse(value) : null;
  if (parsed?.success) return parsed.data;
  if (!ctx.reported.has(key)) {
    ctx.reported.add(key);
    const why = parsed ? (parsed.error.issues[0]?.message ?? 'is not valid') : 'must be a string';
    ctx.issues.push({
      path: formatIssuePath(['modifications', key]),
      message: `${why} (the ${property} of element "${element.id}")`,
    });
  }
  return undefined;
}

function applyProperties(element: Element, ctx: Context): Element {
  let next = element;
  const visible = propertyValue(element, 'visible', ctx);
  if (visible !== undefined) next = { ...next, visible: visible === 'true' };
  const color = propertyValue(element, 'color', ctx);
  if (color !== undefined && (next.type === 'text' || next.type === 'qr' || next.type === 'barcode')) {
    // A text colour replaces the element's paint and every span's own colour: "recolour this text".
    next =
      next.type === 'text' && next.spans
        ? { ...next, color, spans: next.spans.map(({ color: _omit, ...span }) => span) }
        : { ...next, color };
  }
  const fill = propertyValue(element, 'fill', ctx);
  if (fill !== undefined && (next.type === 'rect' || next.type === 'ellipse')) next = { ...next, fill };
  return next;
}

function applyToElement(element: Element, path: PropertyKey[], ctx: Context): Element {
  return applyProperties(applyPrimary(element, path, ctx), ctx);
}

/**
 * Applies modifications to a stored document. Call it for every render, even with `{}`: that is
 * what fills placeholders from the document's `variables` defaults. Unknown keys are ignored.
 */
export function applyModifications(doc: DesignDocument, mods: Modifications = {}): ModificationResult {
  if (typeof mods !== 'object' || mods === null || Array.isArray(mods)) {
    return { ok: false, issues: [{ path: 'modifications', message: 'must be an object of strings' }] };
  }
  const ctx: Context = {
    mods,
    variables: doc.variables,
    issues: [],
    reported: new Set(),
    textBudget: designBounds.documentText,
    budgetReported: false,
  };
  const pages = doc.pages.map((page, p) => ({
    ...page,
    elements: mapElements(page.elements, (element, path) =>
      applyToElement(element, ['pages', p, ...path], ctx),
    ),
  }));
  if (ctx.issues.length > 0) return { ok: false, issues: ctx.issues };
  return { ok: true, document: { ...doc, pages } };
}

/** Entries sorted by key (code-unit order), so equal modifications hash equally. */
export function canonicalModifications(mods: Modifications | undefined): [string, string][] {
  return Object.entries(mods ?? {}).sort(([a], [b]) => byCodeUnit(a, b));
}

/**
 * Every key a modification can act on in this document: placeholder names in text elements and
 * the names of elements that have a primary property. Sorted, without duplicates.
 */
export function referencedVariables(doc: DesignDocument): string[] {
  const names = new Set<string>();
  for (const page of doc.pages) {
    for (const element of pageElements(page)) {
      if (element.name && hasPrimary(element.type)) names.add(element.name);
      if (element.type !== 'text') continue;
      for (const text of element.spans ? element.spans.map((span) => span.text) : [element.text]) {
        for (const match of text.matchAll(PLACEHOLDER)) if (match[1]) names.add(match[1]);
      }
    }
  }
  return [...names].sort(byCodeUnit);
}
