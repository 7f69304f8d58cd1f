import type { FastifyRequest } from 'fastify';
import { type Language } from '@gatehouse/contract';
import { verifyPassword } from '../../platform/crypto/password.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
const M = catalogue<typeof usersMessages>('users');

/** Former passwords (the last OLD_PASSWORD_HISTORY_LIMIT_COUNT are refused). */
const HISTORY_MSG = M.the_new_password_cannot_be_the;

export function historyMessage(lang: Language, n: number): string {
  return tr(lang, HISTORY_MSG, { n: String(n) });
}

/**
 * Whether the password is the current one or one of the former ones within the last
 * `OLD_PASSWORD_HISTORY_LIMIT_COUNT` (the current password counts as one of them).
 */
export async function isRecentPassword(
  req: FastifyRequest,
  userId: string,
  currentHash: string,
  password: string,
): Promise<boolean> {
  const limit = Number(await req.server.deps.settings.get('OLD_PASSWORD_HISTORY_LIMIT_COUNT'));
  if (limit <= 0) return false;
  if (await verifyPassword(password, currentHash)) return true;
  if (limit <= 1) return false;
  const former = await req.db
    .selectFrom('users_userpasswordhistory')
    .select('password')
    .where('user_id', '=', userId)
    .orderBy('date_created', 'desc')
    .limit(limit - 1)
    .execute();
  for (const f of former) if (await verifyPassword(password, f.password)) return true;
  return false;
}
