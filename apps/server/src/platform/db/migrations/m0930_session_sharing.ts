import type { Kysely } from 'kysely';

/**
 * Session sharing (`terminal/session-sharings/`): the owner of a running session invites others
 * by link and verify code, read-only or writable, for a number of minutes; each join (or refused
 * attempt) is a join record naming the sharing.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('terminal_sessionsharing')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('creator_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('verify_code', 'varchar(16)', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('expired_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('users', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('action_permission', 'varchar(16)', (c) => c.notNull().defaultTo('readonly'))
    .addColumn('origin', 'varchar(256)', (c) => c.notNull().defaultTo(''))
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('terminal_sessionsharing_creator_idx')
    .on('terminal_sessionsharing')
    .columns(['creator_id', 'date_created'])
    .execute();
  await db.schema
    .createIndex('terminal_sessionsharing_session_idx')
    .on('terminal_sessionsharing')
    .column('session_id')
    .execute();
  await db.schema.alterTable('terminal_sessionjoinrecord').addColumn('sharing_id', 'varchar(36)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('terminal_sessionjoinrecord').dropColumn('sharing_id').execute();
  await db.schema.dropTable('terminal_sessionsharing').execute();
}
