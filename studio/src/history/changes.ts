/**
 * The history panels' words for a diff (docs/versions.md), shared by the console and the studio:
 * each change of `GET …/diff` as one line a person can read, and the name of a diff side.
 */
import type { Schemas } from '@platen/client';

export type TemplateVersion = Schemas['TemplateVersion'];
export type TemplateDiff = Schemas['TemplateDiff'];
export type DocumentChange = Schemas['DocumentChange'];

/** A diff side as the routes take it: a version number or the current draft. */
export type Side = number | 'draft';

export const sideName = (side: Side) => (side === 'draft' ? 'the draft' : `version ${side}`);

/** A value shown in a line: JSON, cut short (a whole element would not be read anyway). */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** An added or removed element or page, by its type and id rather than its whole JSON. */
function item(value: unknown): string {
  if (value && typeof value === 'object' && 'id' in value) {
    const { id, type } = value as { id: unknown; type?: unknown };
    return typeof type === 'string' ? `${type} ${shown(id)}` : shown(id);
  }
  return shown(value);
}

export function describeChange(change: DocumentChange): string {
  switch (change.op) {
    case 'add':
      return `Added ${item(change.value)} at ${change.path}`;
    case 'remove':
      return `Removed ${item(change.value)} from ${change.path}`;
    case 'reorder':
      return `Reordered ${change.path}`;
    default:
      return `Changed ${change.path} from ${shown(change.from)} to ${shown(change.to)}`;
  }
}
