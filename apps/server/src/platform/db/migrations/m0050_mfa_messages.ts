import type { Kysely } from 'kysely';

/**
 * Authentication and notifications: the encrypted OTP seed on users, password history, and site
 * messages (one content, one row per recipient). Portable types only, as every migration.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types
export async function up(db: Kysely<any>): Promise<void> {
  // Sealed with the secret box (platform/crypto/secretBox.ts), never the plain base32 seed.
  await db.schema.alterTable('users_user').addColumn('otp_secret_key', 'text').execute();

  await db.schema
    .createTable('users_userpasswordhistory')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'))
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('users_userpasswordhistory_user_idx')
    .on('users_userpasswordhistory')
    .columns(['user_id', 'date_created'])
    .execute();

  await db.schema
    .createTable('notifications_messagecontent')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('subject', 'varchar(1024)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('sender_id', 'varchar(36)', (c) => c.references('users_user.id').onDelete('set null'))
    .addColumn('is_broadcast', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notifications_sitemessage')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('content_id', 'varchar(36)', (c) =>
      c.notNull().references('notifications_messagecontent.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users_user.id').onDelete('cascade'))
    .addColumn('has_read', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('read_at', 'varchar(32)')
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_sitemessage_user_idx')
    .on('notifications_sitemessage')
    .columns(['user_id', 'has_read', 'date_created'])
    .execute();
  await db.schema
    .createIndex('notifications_sitemessage_content_idx')
    .on('notifications_sitemessage')
    .column('content_id')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['notifications_sitemessage', 'notifications_messagecontent', 'users_userpasswordhistory'])
    await db.schema.dropTable(t).execute();
  await db.schema.alterTable('users_user').dropColumn('otp_secret_key').execute();
}
