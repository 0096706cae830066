/**
 * Versioned migrations of the design document (tldraw style): `migrations[n]` upgrades a raw
 * version-n document to version n + 1. Migrations run on raw JSON before the schema, so a step may
 * reshape anything; each must be pure and total on documents that were valid at version n.
 */
import type { ValidationIssue } from '../core/errors.ts';
import { SCHEMA_VERSION } from './schema.ts';

export type RawDocument = Record<string, unknown>;
export type Migration = (doc: RawDocument) => RawDocument;

/**
 * 1 → 2: version 2 only adds optional fields (spans, gradients, effects, crop and filters, groups,
 * barcodes) and changes no default, so a version 1 document is already a valid version 2 document
 * that draws the same pixels; the step only raises the version. docs/design-document.md.
 */
export const migrations: Readonly<Record<number, Migration>> = Object.freeze({
  1: (doc: RawDocument) => ({ ...doc }),
});

export type MigrationResult = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

export interface MigrationOptions {
  /** Registry to use; tests pass their own to prove the mechanism. */
  registry?: Readonly<Record<number, Migration>>;
  /** Version to migrate to. */
  target?: number;
}

function isRecord(value: unknown): value is RawDocument {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const fail = (message: string): MigrationResult => ({
  ok: false,
  issues: [{ path: 'schemaVersion', message }],
});

function readVersion(doc: RawDocument, target: number): number | string {
  // Documents written before versioning existed are version 1.
  const version = doc.schemaVersion ?? 1;
  if (typeof version !== 'number' || !Number.isInteger(version)) return 'must be an integer';
  if (version < 1) return 'must be 1 or more';
  if (version > target) return `version ${version} is newer than this service supports (${target})`;
  return version;
}

/**
 * Brings a raw document to the target version. A non-object is passed through unchanged so the
 * schema can report it in its own words. Never throws: a failing step becomes an issue.
 */
export function migrateToCurrent(raw: unknown, options: MigrationOptions = {}): MigrationResult {
  if (!isRecord(raw)) return { ok: true, value: raw };
  const registry = options.registry ?? migrations;
  const target = options.target ?? SCHEMA_VERSION;
  const version = readVersion(raw, target);
  if (typeof version === 'string') return fail(version);
  let doc: RawDocument = { ...raw, schemaVersion: version };
  for (let from = version; from < target; from++) {
    const step = Object.hasOwn(registry, from) ? registry[from] : undefined;
    if (!step) return fail(`no migration from version ${from} to ${from + 1}`);
    try {
      const next = step(doc);
      if (!isRecord(next)) return fail(`migration from version ${from} did not produce a document`);
      doc = { ...next, schemaVersion: from + 1 };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return fail(`could not migrate from version ${from} to ${from + 1}: ${reason}`);
    }
  }
  return { ok: true, value: doc };
}
