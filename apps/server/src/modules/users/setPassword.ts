import type { FastifyRequest } from 'fastify';
import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { UserTable } from '../../platform/db/tables/core.ts';
import { hashPassword } from '../../platform/crypto/password.ts';
import { writePasswordChangeLog } from '../audits/passwordChangeLog.ts';

/**
 * The one place a user's password is stored: the profile's own change, an admin's reset
 * (`PUT users/<id>/password/`, a `password` in PATCH/PUT of the user) and, when they are built, the
 * reset link and automations (`req` undefined: the change is the system's). It stores the hash,
 * stamps `date_password_last_updated` and writes the password change log, in the caller's
 * transaction when `db` is one. Ending the user's other credentials stays with the caller, who
 * knows which session to keep.
 */
export async function setUserPassword(
  db: Kysely<DB>,
  req: FastifyRequest | undefined,
  userId: string,
  secret: { password: string } | { hash: string },
  extra: Updateable<UserTable> = {},
): Promise<void> {
  const hash = 'hash' in secret ? secret.hash : await hashPassword(secret.password);
  await db
    .updateTable('users_user')
    .set({ ...extra, password: hash, date_password_last_updated: new Date().toISOString() })
    .where('id', '=', userId)
    .execute();
  const user = await db
    .selectFrom('users_user')
    .select(['id', 'name', 'username'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (user) await writePasswordChangeLog(db, req, user);
}
