import type { Kysely } from 'kysely';

/**
 * Terminal settings' storages and endpoints: where recordings are kept (`terminal_replaystorage`,
 * the built-in local one `default` of type `server` first and default), which storage holds each
 * session's recording (`terminal_session.replay_storage_id`, NULL = the local data directory), the
 * addresses clients are told to use (`terminal_endpoint`, the built-in `Default` with an empty host
 * = the browser's host) and the rules choosing among them by client IP (`terminal_endpointrule`).
 */
export const DEFAULT_REPLAY_STORAGE_ID = '00000000-0000-0000-0000-000000000001';
export const DEFAULT_ENDPOINT_ID = '00000000-0000-0000-0000-000000000001';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();
  await db.schema
    .createTable('terminal_replaystorage')
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
    .insertInto('terminal_replaystorage')
    .values({
      id: DEFAULT_REPLAY_STORAGE_ID,
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
  await db.schema.alterTable('terminal_session').addColumn('replay_storage_id', 'varchar(36)').execute();

  await db.schema
    .createTable('terminal_endpoint')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('host', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('https_port', 'integer', (c) => c.notNull().defaultTo(443))
    .addColumn('http_port', 'integer', (c) => c.notNull().defaultTo(80))
    .addColumn('ssh_port', 'integer', (c) => c.notNull().defaultTo(2222))
    .addColumn('rdp_port', 'integer', (c) => c.notNull().defaultTo(3389))
    .addColumn('mysql_port', 'integer', (c) => c.notNull().defaultTo(33061))
    .addColumn('mariadb_port', 'integer', (c) => c.notNull().defaultTo(33062))
    .addColumn('postgresql_port', 'integer', (c) => c.notNull().defaultTo(54320))
    .addColumn('redis_port', 'integer', (c) => c.notNull().defaultTo(63790))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db
    .insertInto('terminal_endpoint')
    .values({ id: DEFAULT_ENDPOINT_ID, name: 'Default', created_by: 'System', date_created: now, date_updated: now })
    .execute();
  await db.schema
    .createTable('terminal_endpointrule')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('ip_group', 'text', (c) => c.notNull().defaultTo('["*"]'))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(50))
    .addColumn('endpoint_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('terminal_endpointrule').execute();
  await db.schema.dropTable('terminal_endpoint').execute();
  await db.schema.alterTable('terminal_session').dropColumn('replay_storage_id').execute();
  await db.schema.dropTable('terminal_replaystorage').execute();
}
