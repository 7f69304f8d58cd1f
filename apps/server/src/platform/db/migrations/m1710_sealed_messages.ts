import type { Kysely } from 'kysely';

/**
 * `notifications_messagecontent.sealed`: the message's HTML is stored encrypted with the secret box
 * and opened only when its recipient reads it (modules/notifications/siteMessages.ts): an account
 * backup's password half is told this way and never sits in the database in clear.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('notifications_messagecontent')
    .addColumn('sealed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications_messagecontent').dropColumn('sealed').execute();
}
