import type { Kysely } from 'kysely';

/**
 * `users_user.lang`: the language of the user's last signed-in request that named one ('' = never
 * seen: English), so messages the server writes to the user are in that language. Internal, not in
 * the user API.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users_user')
    .addColumn('lang', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users_user').dropColumn('lang').execute();
}
