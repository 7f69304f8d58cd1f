import type { Kysely } from 'kysely';

/**
 * Join records of sessions (`terminal/session-join-records/`): one row each time someone watches
 * (monitor, read-only) or joins a running session, closed when they leave. No foreign key to the
 * session: the retention job deletes them with it (modules/ops/retention.ts).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('terminal_sessionjoinrecord')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('joiner_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('joiner_display', 'varchar(256)', (c) => c.notNull())
    .addColumn('verify_code', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('action_permission', 'varchar(16)', (c) => c.notNull().defaultTo('readonly'))
    .addColumn('remote_addr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('login_from', 'varchar(2)', (c) => c.notNull().defaultTo('WT'))
    .addColumn('is_success', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('reason', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_finished', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_joined', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_left', 'varchar(32)')
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('terminal_sessionjoinrecord_session_idx')
    .on('terminal_sessionjoinrecord')
    .columns(['session_id', 'date_joined'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('terminal_sessionjoinrecord').execute();
}
