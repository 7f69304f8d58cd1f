import type { Kysely } from 'kysely';

/**
 * System message subscriptions (`notifications/system-msg-subscription/`,
 * modules/notifications/subscriptions.ts): per message type, the backends it goes out by and the
 * extra users and groups that receive it. A type without a row uses its declared defaults.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications_systemmsgsubscription')
    .addColumn('message_type', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('users', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('receive_backends', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('date_updated', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications_systemmsgsubscription').execute();
}
