import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { toBool } from '../../platform/db/schema.ts';
import type { AuthUser } from '../../http/context.ts';

const USER_COLUMNS = [
  'id',
  'username',
  'name',
  'email',
  'is_active',
  'is_first_login',
  'need_update_password',
  'is_service_account',
  'source',
  'mfa_level',
  'phone',
  'wechat',
  'comment',
  'date_expired',
  'date_joined',
  'last_login',
  'date_password_last_updated',
  'created_by',
  'updated_by',
  'date_updated',
  'lang',
] as const;

export function isUsable(u: Pick<AuthUser, 'is_active' | 'date_expired'>): boolean {
  return toBool(u.is_active) && new Date(u.date_expired).getTime() > Date.now();
}

/** The user, if it exists, is active and has not expired. */
export async function findActiveUser(db: Kysely<DB>, id: string): Promise<AuthUser | undefined> {
  const u = await db.selectFrom('users_user').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return u && isUsable(u) ? u : undefined;
}

export async function findUserWithPassword(
  db: Kysely<DB>,
  username: string,
): Promise<(AuthUser & { password: string }) | undefined> {
  return db
    .selectFrom('users_user')
    .select([...USER_COLUMNS, 'password'])
    .where('username', '=', username)
    .executeTakeFirst();
}
