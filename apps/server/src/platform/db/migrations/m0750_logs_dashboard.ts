import type { Kysely } from 'kysely';

/**
 * The logs and dashboards (issue 18): what a web sign-in was opened from (`auth_session`, for the
 * online user sessions list), the password change log, and the indexes the dashboard's aggregates
 * read in the global org (the org-scoped ones lead with `org_id`) at a million commands.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, size] of [
    ['ip', 64],
    ['city', 254],
    ['user_agent', 254],
    ['type', 2],
    ['backend', 32],
  ] as const)
    await db.schema
      .alterTable('auth_session')
      .addColumn(name, `varchar(${size})`, (c) => c.notNull().defaultTo(''))
      .execute();

  await db.schema
    .createTable('audits_passwordchangelog')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('change_by', 'varchar(128)', (c) => c.notNull())
    .addColumn('remote_addr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('datetime', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audits_passwordchangelog_datetime_idx')
    .on('audits_passwordchangelog')
    .column('datetime')
    .execute();
  await db.schema
    .createIndex('audits_passwordchangelog_user_idx')
    .on('audits_passwordchangelog')
    .columns(['user_id', 'datetime'])
    .execute();

  // Dashboard aggregates: counts and groups over a date range, covered by the index.
  await db.schema
    .createIndex('terminal_session_date_cover_idx')
    .on('terminal_session')
    .columns(['date_start', 'org_id', 'is_success', 'is_finished', 'user', 'asset'])
    .execute();
  await db.schema
    .createIndex('terminal_session_org_cover_idx')
    .on('terminal_session')
    .columns(['org_id', 'date_start', 'is_success', 'is_finished', 'user', 'asset'])
    .execute();
  await db.schema
    .createIndex('terminal_session_online_idx')
    .on('terminal_session')
    .columns(['is_finished', 'org_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('terminal_command_time_risk_idx')
    .on('terminal_command')
    .columns(['timestamp_ms', 'risk_level'])
    .execute();
  await db.schema
    .createIndex('terminal_command_org_time_risk_idx')
    .on('terminal_command')
    .columns(['org_id', 'timestamp_ms', 'risk_level'])
    .execute();
  await db.schema
    .createIndex('audits_operatelog_org_datetime_idx')
    .on('audits_operatelog')
    .columns(['org_id', 'datetime'])
    .execute();
  await db.schema
    .createIndex('audits_userloginlog_datetime_cover_idx')
    .on('audits_userloginlog')
    .columns(['datetime', 'status', 'username'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'terminal_session_date_cover_idx',
    'terminal_session_org_cover_idx',
    'terminal_session_online_idx',
    'terminal_command_time_risk_idx',
    'terminal_command_org_time_risk_idx',
    'audits_operatelog_org_datetime_idx',
    'audits_userloginlog_datetime_cover_idx',
  ])
    await db.schema.dropIndex(index).execute();
  await db.schema.dropTable('audits_passwordchangelog').execute();
  for (const name of ['ip', 'city', 'user_agent', 'type', 'backend'])
    await db.schema.alterTable('auth_session').dropColumn(name).execute();
}
