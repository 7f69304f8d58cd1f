import type { Kysely } from 'kysely';

/**
 * `users_user.wecom_id`, `dingtalk_id`, `feishu_id`: the user's id in each company messenger, set
 * when the user binds it from the profile or first signs in through it
 * (modules/authentication/im/). Unique where set: one messenger account signs in one user.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on the current schema types */
const COLUMNS = ['wecom_id', 'dingtalk_id', 'feishu_id'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema.alterTable('users_user').addColumn(column, 'varchar(128)').execute();
    await db.schema.createIndex(`users_user_${column}_uniq`).unique().on('users_user').column(column).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema.dropIndex(`users_user_${column}_uniq`).execute();
    await db.schema.alterTable('users_user').dropColumn(column).execute();
  }
}
