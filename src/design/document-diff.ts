/**
 * What changed between two design documents, as data (the versions API, docs/versions.md) and as lines a person reads in a terminal (the templates CLI). Items of an
 * array whose entries all carry a unique `id` (pages, elements) are matched by that id, so a moved
 * element is one reorder rather than twenty changed properties; objects are compared key by key;
 * any other array is one value. Pure: the inputs are plain JSON, nothing is read or written.
 */

export type Change =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string; value: unknown }
  | { op: 'set'; path: string; from: unknown; to: unknown }
  | { op: 'reorder'; path: string; from: string[]; to: string[] };

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The changes that turn `before` into `after`, in `after`'s order, removals after the rest. */
export function diffDocuments(before: unknown, after: unknown): Change[] {
  const changes: Change[] = [];
  walk(before, after, '', changes);
  return changes;
}

function walk(before: unknown, after: unknown, path: string, changes: Change[]): void {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const at = keyPath(path, key);
      if (!Object.hasOwn(after, key)) changes.push({ op: 'remove', path: at, value: before[key] });
      else if (!Object.hasOwn(before, key)) changes.push({ op: 'add', path: at, value: after[key] });
      else walk(before[key], after[key], at, changes);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const beforeIds = idsOf(before);
    const afterIds = idsOf(after);
    if (beforeIds && afterIds && before.length + after.length > 0) {
      walkById(before, beforeIds, after, afterIds, path, changes);
      return;
    }
  }
  if (!sameJson(before, after)) changes.push({ op: 'set', path, from: before, to: after });
}

function walkById(
  before: unknown[],
  beforeIds: string[],
  after: unknown[],
  afterIds: string[],
  path: string,
  changes: Change[],
): void {
  const beforeById = new Map(beforeIds.map((id, index) => [id, before[index]]));
  const afterSet = new Set(afterIds);
  afterIds.forEach((id, index) => {
    const at = itemPath(path, id);
    if (beforeById.has(id)) walk(beforeById.get(id), after[index], at, changes);
    else changes.push({ op: 'add', path: at, value: after[index] });
  });
  beforeIds.forEach((id, index) => {
    if (!afterSet.has(id)) changes.push({ op: 'remove', path: itemPath(path, id), value: before[index] });
  });
  // Order matters (pages print in it, elements stack in it), but only among the items both keep.
  const kept = beforeIds.filter((id) => afterSet.has(id));
  const keptAfter = afterIds.filter((id) => beforeById.has(id));
  if (kept.join('\u0000') !== keptAfter.join('\u0000')) {
    changes.push({ op: 'reorder', path, from: kept, to: keptAfter });
  }
}

/** The ids of an array's items when every item is an object with its own unique string `id`. */
function idsOf(list: unknown[]): string[] | null {
  const ids: string[] = [];
  for (const item of list) {
    if (!isObject(item) || typeof item.id !== 'string') return null;
    ids.push(item.id);
  }
  return new Set(ids).size === ids.length ? ids : null;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
    );
  }
  return false;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const PLAIN_ID = /^[\w.:-]+$/;

function keyPath(path: string, key: string): string {
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}

function itemPath(path: string, id: string): string {
  return `${path}[${PLAIN_ID.test(id) ? id : JSON.stringify(id)}]`;
}

const MAX_VALUE_TEXT = 60;

/** A value as JSON on one line, cut short: an SVG or a long text stays readable in a list. */
export function showValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text;
}

/** An added or removed object is named by its type (`(ellipse)`), not printed whole. */
function showItem(path: string, value: unknown): string {
  if (isObject(value)) return typeof value.type === 'string' ? `${path} (${value.type})` : path;
  return `${path}: ${showValue(value)}`;
}

export function describeChange(change: Change): { sign: '+' | '-' | '~'; text: string } {
  switch (change.op) {
    case 'add':
      return { sign: '+', text: showItem(change.path, change.value) };
    case 'remove':
      return { sign: '-', text: showItem(change.path, change.value) };
    case 'set':
      return { sign: '~', text: `${change.path}: ${showValue(change.from)} → ${showValue(change.to)}` };
    case 'reorder':
      return { sign: '~', text: `${change.path} order: ${change.from.join(', ')} → ${change.to.join(', ')}` };
  }
}
