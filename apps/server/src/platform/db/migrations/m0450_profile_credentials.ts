import type { CreateTableBuilder, Kysely } from 'kysely';

/**
 * The profile's own credentials and settings: API keys (HTTP signatures), legacy private tokens,
 * temporary passwords, passkeys (WebAuthn), per-user preferences and connection tokens. Every row
 * belongs to one user and goes with that user. Secrets are sealed with the secret box, except the
 * private token, which is kept only as its SHA-256.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
const owner = (t: CreateTableBuilder<any, any>) =>
  t.addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'));

export async function up(db: Kysely<any>): Promise<void> {
  await owner(db.schema.createTable('authentication_accesskey').addColumn('id', 'varchar(36)', (c) => c.primaryKey()))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('date_last_used', 'varchar(32)')
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('authentication_accesskey_user_idx')
    .on('authentication_accesskey')
    .column('user_id')
    .execute();

  await owner(
    db.schema.createTable('authentication_privatetoken').addColumn('id', 'varchar(36)', (c) => c.primaryKey()),
  )
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .execute();

  await owner(db.schema.createTable('authentication_temptoken').addColumn('id', 'varchar(36)', (c) => c.primaryKey()))
    .addColumn('username', 'varchar(128)', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_verified', 'varchar(32)')
    .addColumn('date_expired', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('authentication_temptoken_user_idx')
    .on('authentication_temptoken')
    .column('user_id')
    .execute();

  await owner(db.schema.createTable('authentication_passkey').addColumn('id', 'varchar(36)', (c) => c.primaryKey()))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('platform', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('credential_id', 'varchar(1024)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_last_used', 'varchar(32)')
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('authentication_passkey_user_idx')
    .on('authentication_passkey')
    .column('user_id')
    .execute();

  await owner(db.schema.createTable('users_preference').addColumn('id', 'varchar(36)', (c) => c.primaryKey()))
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('encrypted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('users_preference_uniq', ['user_id', 'category', 'name'])
    .execute();

  await owner(
    db.schema.createTable('authentication_connectiontoken').addColumn('id', 'varchar(36)', (c) => c.primaryKey()),
  )
    .addColumn('value', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_display', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('asset_id', 'varchar(36)')
    .addColumn('asset_display', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('account', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('input_username', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('input_secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull().defaultTo('ssh'))
    .addColumn('connect_method', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('connect_options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('is_reusable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('from_ticket_id', 'varchar(36)')
    .addColumn('org_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('date_expired', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('authentication_connectiontoken_user_idx')
    .on('authentication_connectiontoken')
    .columns(['user_id', 'date_expired'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'authentication_connectiontoken',
    'users_preference',
    'authentication_passkey',
    'authentication_temptoken',
    'authentication_privatetoken',
    'authentication_accesskey',
  ])
    await db.schema.dropTable(t).execute();
}
