import type { Kysely } from 'kysely';

/**
 * Gatehouse's own periodic and background tasks (modules/ops/tasks/, Settings › Tasks): each run
 * is a row of `ops_taskexecution`; a periodic task switched off is a row of `ops_periodictask`.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ops_taskexecution')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('task_name', 'varchar(128)', (c) => c.notNull())
    /** schedule | manual | start */
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
    .addColumn('creator_id', 'varchar(36)')
    /** running | success | failure */
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('date_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_finished', 'varchar(32)')
    .addColumn('time_cost', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createIndex('ops_taskexecution_task_idx')
    .on('ops_taskexecution')
    .columns(['task_name', 'date_start'])
    .execute();
  await db.schema
    .createTable('ops_periodictask')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ops_periodictask').execute();
  await db.schema.dropTable('ops_taskexecution').execute();
}
