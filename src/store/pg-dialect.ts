/**
 * PostgreSQL for Kysely, with an introspector that reads only the connection's own schema.
 *
 * Kysely's migrator asks the introspector for every table before each run. Kysely's PostgreSQL
 * introspector answers with the columns of every schema in the database, calling
 * `has_schema_privilege(name)` and `pg_get_serial_sequence(name)` on each. Those look the name up
 * in the catalog as of now, not as of the statement's snapshot, so a schema dropped by anyone while
 * the statement runs fails it (3F000; the test reproduces it) and with it this deployment's start.
 * Test files, each in a schema of its own, met it in CI. The migrator needs only the names of its
 * own two tables, so this introspector lists the tables of `current_schema()`, joined by OID, with
 * no name lookups. docs/operations.md ("Many instances") says how deployments share a database.
 */
import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

interface ColumnRow {
  table: string;
  kind: string;
  schema: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  comment: string | null;
}

export class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    // Names only, from the snapshot: no per-schema function call that could meet a dropped one.
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows.map((row) => ({ name: row.name }));
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    // Everything is joined by OID: a column default's text comes from pg_attrdef, an identity
    // column from attidentity, so no relation is opened by name.
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, c.relkind as kind, ns.nspname as schema, a.attname as column,
             typ.typname as type, tns.nspname as type_schema, a.attnotnull as not_null,
             a.atthasdef as has_default,
             (a.attidentity <> '' or coalesce(pg_catalog.pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false))
               as auto_incrementing,
             dsc.description as comment
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
        left join pg_catalog.pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
        left join pg_catalog.pg_description dsc
          on dsc.objoid = c.oid and dsc.objsubid = a.attnum and dsc.classoid = 'pg_catalog.pg_class'::regclass
       where ns.nspname = current_schema()
         and c.relkind in ('r', 'v', 'p')
         and a.attnum > 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, { name: string; isView: boolean; schema: string; columns: ColumnRow[] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && isKyselyTable(row.table)) continue;
      const table = tables.get(row.table) ?? {
        name: row.table,
        isView: row.kind === 'v',
        schema: row.schema,
        columns: [],
      };
      table.columns.push(row);
      tables.set(row.table, table);
    }
    return [...tables.values()].map((table) => ({
      name: table.name,
      isView: table.isView,
      schema: table.schema,
      columns: table.columns.map((column) => ({
        name: column.column,
        dataType: column.type,
        dataTypeSchema: column.type_schema,
        isNullable: !column.not_null,
        isAutoIncrementing: column.auto_incrementing,
        hasDefaultValue: column.has_default,
        comment: column.comment ?? undefined,
      })),
    }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

function isKyselyTable(name: string): boolean {
  return name === DEFAULT_MIGRATION_TABLE || name === DEFAULT_MIGRATION_LOCK_TABLE;
}
