import type { Kysely } from 'kysely';

/** `users_user.public_key`: the user's SSH public key for sign-in to the native SSH server ('' = none). */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users_user')
    .addColumn('public_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users_user').dropColumn('public_key').execute();
}
