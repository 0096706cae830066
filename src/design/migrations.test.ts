import { describe, expect, it } from 'vitest';
import { type Migration, migrateToCurrent, migrations } from './migrations.ts';
import { SCHEMA_VERSION } from './schema.ts';

describe('migrateToCurrent', () => {
  it('has a step from every earlier version to the current one', () => {
    for (let version = 1; version < SCHEMA_VERSION; version++)
      expect(migrations[version]).toBeTypeOf('function');
  });

  it('treats a missing schemaVersion as version 1', () => {
    expect(migrateToCurrent({ pages: [] })).toEqual({ ok: true, value: { pages: [], schemaVersion: 2 } });
  });

  it('passes a non-object through for the schema to report', () => {
    expect(migrateToCurrent(null)).toEqual({ ok: true, value: null });
    expect(migrateToCurrent([1])).toEqual({ ok: true, value: [1] });
  });

  it.each([
    [1.5, 'must be an integer'],
    ['1', 'must be an integer'],
    [0, 'must be 1 or more'],
    [
      SCHEMA_VERSION + 1,
      `version ${SCHEMA_VERSION + 1} is newer than this service supports (${SCHEMA_VERSION})`,
    ],
  ])('refuses schemaVersion %j', (schemaVersion, message) => {
    expect(migrateToCurrent({ schemaVersion })).toEqual({
      ok: false,
      issues: [{ path: 'schemaVersion', message }],
    });
  });

  describe('with a registered fake history (versions 1 → 2 → 3)', () => {
    // v2 renamed `title` to `name`; v3 added `tags` with a default.
    const registry: Record<number, Migration> = {
      1: ({ title, ...rest }) => ({ ...rest, name: title }),
      2: (doc) => ({ ...doc, tags: [] }),
    };

    it('runs every step in order and stamps the new version', () => {
      const input = { schemaVersion: 1, title: 'x' };
      expect(migrateToCurrent(input, { registry, target: 3 })).toEqual({
        ok: true,
        value: { schemaVersion: 3, name: 'x', tags: [] },
      });
      expect(input).toEqual({ schemaVersion: 1, title: 'x' });
    });

    it('starts from the document’s own version', () => {
      const result = migrateToCurrent({ schemaVersion: 2, name: 'y' }, { registry, target: 3 });
      expect(result).toEqual({ ok: true, value: { schemaVersion: 3, name: 'y', tags: [] } });
    });

    it('reports a missing step', () => {
      const result = migrateToCurrent(
        { schemaVersion: 1 },
        { registry: { 1: registry[1] ?? ((d) => d) }, target: 3 },
      );
      expect(result).toEqual({
        ok: false,
        issues: [{ path: 'schemaVersion', message: 'no migration from version 2 to 3' }],
      });
    });

    it('turns a throwing step into an issue', () => {
      const broken: Record<number, Migration> = {
        1: () => {
          throw new Error('boom');
        },
      };
      expect(migrateToCurrent({ schemaVersion: 1 }, { registry: broken, target: 2 })).toEqual({
        ok: false,
        issues: [{ path: 'schemaVersion', message: 'could not migrate from version 1 to 2: boom' }],
      });
    });
  });
});
