import type { Kysely } from 'kysely';

/**
 * The gateway's records: sessions, the commands run in them, file transfers (`audits_ftplog`),
 * the built-in gateway of each running instance (`terminal_terminal`, refreshed by its heartbeat)
 * and the host keys of assets seen on first use. Sessions, commands and transfers keep display
 * strings of user/asset/account beside the ids: an audit record outlives what it names. No
 * foreign keys for the same reason; the org id is kept for scoping.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('terminal_session')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('asset', 'varchar(128)', (c) => c.notNull())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('account', 'varchar(128)', (c) => c.notNull())
    .addColumn('account_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull().defaultTo('ssh'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('normal'))
    .addColumn('login_from', 'varchar(2)', (c) => c.notNull().defaultTo('WT'))
    .addColumn('remote_addr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_success', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_finished', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('has_replay', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('has_command', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('command_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('terminal_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('replay_path', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_end', 'varchar(32)')
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('terminal_session_org_date_idx')
    .on('terminal_session')
    .columns(['org_id', 'date_start'])
    .execute();
  await db.schema
    .createIndex('terminal_session_unfinished_idx')
    .on('terminal_session')
    .columns(['terminal_id', 'is_finished'])
    .execute();

  await db.schema
    .createTable('terminal_command')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('user', 'varchar(128)', (c) => c.notNull())
    .addColumn('asset', 'varchar(128)', (c) => c.notNull())
    .addColumn('account', 'varchar(128)', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('risk_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
    .addColumn('remote_addr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('cmd_filter_acl_id', 'varchar(36)')
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('terminal_command_session_idx')
    .on('terminal_command')
    .columns(['session_id', 'timestamp_ms'])
    .execute();
  await db.schema
    .createIndex('terminal_command_org_time_idx')
    .on('terminal_command')
    .columns(['org_id', 'timestamp_ms'])
    .execute();

  await db.schema
    .createTable('audits_ftplog')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(36)')
    .addColumn('user', 'varchar(128)', (c) => c.notNull())
    .addColumn('remote_addr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('asset', 'varchar(1024)', (c) => c.notNull())
    .addColumn('account', 'varchar(128)', (c) => c.notNull())
    .addColumn('operate', 'varchar(16)', (c) => c.notNull())
    .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
    .addColumn('is_success', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('has_file', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audits_ftplog_org_date_idx')
    .on('audits_ftplog')
    .columns(['org_id', 'date_start'])
    .execute();

  await db.schema
    .createTable('terminal_terminal')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull().defaultTo('gatehouse'))
    .addColumn('remote_addr', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('pid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('session_online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cpu_load', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('memory_used', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('disk_used', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('terminal_hostkey')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('asset_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('key_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(128)', (c) => c.notNull())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('terminal_hostkey_asset_host_port_uniq', ['asset_id', 'host', 'port'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['terminal_hostkey', 'terminal_terminal', 'audits_ftplog', 'terminal_command', 'terminal_session'])
    await db.schema.dropTable(t).execute();
}
