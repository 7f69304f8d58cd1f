import type { Kysely } from 'kysely';

/**
 * Command storages (`terminal/command-storages/`): the built-in `default` (type `server`, the
 * database, which always keeps every command) and Elasticsearch ones that also receive them.
 */
export const DEFAULT_COMMAND_STORAGE_ID = '00000000-0000-0000-0000-000000000001';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();
  await db.schema
    .createTable('terminal_commandstorage')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db
    .insertInto('terminal_commandstorage')
    .values({
      id: DEFAULT_COMMAND_STORAGE_ID,
      name: 'default',
      type: 'server',
      meta: '{}',
      is_default: true,
      comment: '',
      created_by: 'System',
      date_created: now,
      date_updated: now,
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('terminal_commandstorage').execute();
}
