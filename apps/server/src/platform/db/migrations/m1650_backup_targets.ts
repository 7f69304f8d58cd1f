import type { Kysely } from 'kysely';

/**
 * Account backups sent away (docs/automations.md, "Backup"): a plan's target (`email` to its two
 * recipient parts, or `object_storage`: SFTP replay storages for each part), and mail attachments
 * in the outbox (modules/notifications/mail/outbox.ts). A mail carrying a secret keeps its body and
 * attachment sealed by the secret box until sent; the attachment is dropped once it is.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts_backupplan')
    .addColumn('backup_type', 'varchar(16)', (c) => c.notNull().defaultTo('email'))
    .execute();
  await db.schema
    .alterTable('accounts_backupplan')
    .addColumn('obj_recipients_part_one', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('accounts_backupplan')
    .addColumn('obj_recipients_part_two', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('notifications_mailoutbox')
    .addColumn('is_sealed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('notifications_mailoutbox')
    .addColumn('attachment_name', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('notifications_mailoutbox').addColumn('attachment', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of ['attachment', 'attachment_name', 'is_sealed'])
    await db.schema.alterTable('notifications_mailoutbox').dropColumn(c).execute();
  for (const c of ['obj_recipients_part_two', 'obj_recipients_part_one', 'backup_type'])
    await db.schema.alterTable('accounts_backupplan').dropColumn(c).execute();
}
