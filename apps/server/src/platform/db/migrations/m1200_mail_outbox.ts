import type { Kysely } from 'kysely';

/**
 * The mail outbox (modules/notifications/mail/outbox.ts): every mail Gatehouse sends is a row here
 * first, sent by whichever instance's job engine claims it, tried again with growing delays when
 * the SMTP server refuses, and kept as `sent` or `failed` with its last error.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications_mailoutbox')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('recipient', 'varchar(256)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('message_type', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    /** pending | sending | sent | failed */
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('instance_id', 'varchar(36)')
    .addColumn('claimed_at', 'varchar(32)')
    .addColumn('date_created', 'varchar(32)', (c) => c.notNull())
    .addColumn('date_sent', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('notifications_mailoutbox_due_idx')
    .on('notifications_mailoutbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications_mailoutbox').execute();
}
