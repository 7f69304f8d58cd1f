import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * What Kysely reads of the database's tables (the migrator, `db.introspection`), limited to the
 * connection's own schema (`current_schema()`: public, or the schema of `search_path`). Kysely's
 * own PostgreSQL introspector reads every schema of the database and calls
 * `has_schema_privilege(<name>)` on each: on a database shared with others (test files each in
 * their schema, another deployment) a schema dropped meanwhile fails the whole query with
 * `schema "..." does not exist`, and the answer holds other schemas' tables under the same names.
 */
export class SchemaIntrospector implements DatabaseIntrospector {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- introspection runs before and beside the typed schema
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const r = await sql<{ name: string | null }>`SELECT current_schema() AS name`.execute(this.db);
    return r.rows.flatMap((row) => (row.name ? [{ name: row.name }] : []));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const internal = options.withInternalKyselyTables ? [] : [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE];
    const rows = await sql<{
      schema: string;
      table: string;
      kind: string;
      column: string | null;
      type: string | null;
      type_schema: string | null;
      not_null: boolean | null;
      has_default: boolean | null;
      serial: string | null;
      comment: string | null;
    }>`SELECT ns.nspname AS schema, c.relname AS table, c.relkind AS kind, a.attname AS column,
          t.typname AS type, tns.nspname AS type_schema, a.attnotnull AS not_null, a.atthasdef AS has_default,
          pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) AS serial,
          col_description(a.attrelid, a.attnum) AS comment
        FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace
        LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        LEFT JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
        LEFT JOIN pg_catalog.pg_namespace tns ON tns.oid = t.typnamespace
        WHERE ns.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p')
        ORDER BY c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata>();
    for (const r of rows.rows) {
      if (internal.includes(r.table)) continue;
      let table = tables.get(r.table);
      if (!table) {
        table = { name: r.table, schema: r.schema, isView: r.kind === 'v', columns: [] };
        tables.set(r.table, table);
      }
      if (r.column === null) continue;
      table.columns.push({
        name: r.column,
        dataType: r.type ?? '',
        ...(r.type_schema ? { dataTypeSchema: r.type_schema } : {}),
        isNullable: !r.not_null,
        hasDefaultValue: Boolean(r.has_default),
        isAutoIncrementing: r.serial !== null,
        ...(r.comment ? { comment: r.comment } : {}),
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL with the introspection of the connection's own schema (SchemaIntrospector). */
export class SchemaPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as PostgresDialect's signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaIntrospector(db);
  }
}
