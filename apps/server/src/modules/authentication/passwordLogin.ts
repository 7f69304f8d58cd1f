import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../../http/context.ts';
import { t } from '../../http/messages.ts';
import { verifyPassword } from '../../platform/crypto/password.ts';
import { toBool } from '../../platform/db/schema.ts';
import { findUserWithPassword } from '../users/userRepo.ts';
import { notifyUser } from '../notifications/systemMessages.ts';
import { Lockout } from './lockout.ts';
import { writeLoginLog } from '../audits/loginLog.ts';
import { checkLoginAcl } from '../acls/loginAcl.ts';

export type LoginOutcome =
  | { ok: true; user: AuthUser }
  | {
      ok: false;
      error:
        'password_failed' | 'block_login' | 'user_inactive' | 'user_expired' | 'acl_not_allow' | 'login_acl_review';
      msg: string;
    };

/** Checks the password (below) and writes a failure to the login log (api-contract §2.11). */
export async function checkPasswordLogin(
  req: FastifyRequest,
  username: string,
  password: string,
): Promise<LoginOutcome> {
  const outcome = await checkPassword(req, username, password);
  if (!outcome.ok) await writeLoginLog(req, { username, status: false, reason: outcome.error, mfa: 2 });
  return outcome;
}

/**
 * Checks a username and password with the lock policy of the security settings (api-contract §2.5):
 * a blocked username is refused before its password is even looked at.
 */
async function checkPassword(req: FastifyRequest, username: string, password: string): Promise<LoginOutcome> {
  const { cache, settings } = req.server.deps;
  const lockout = new Lockout(cache);
  const policy = {
    limitCount: await settings.get('SECURITY_LOGIN_LIMIT_COUNT'),
    limitMinutes: await settings.get('SECURITY_LOGIN_LIMIT_TIME'),
  };
  const blocked = {
    ok: false,
    error: 'block_login',
    msg: t(req.lang, 'block_login', { minutes: policy.limitMinutes }),
  } as const;
  if (await lockout.isBlocked(username)) return blocked;

  const found = await findUserWithPassword(req.db, username);
  const valid = await verifyPassword(password, found?.password);
  if (!found || !valid) {
    const left = await lockout.fail(username, req.ip, policy);
    if (left === 0) {
      if (found) await notifyUser(req, found, 'account_locked', { minutes: policy.limitMinutes, what: 'login' });
      return blocked;
    }
    return {
      ok: false,
      error: 'password_failed',
      msg: t(req.lang, 'password_failed', { times: left, minutes: policy.limitMinutes }),
    };
  }
  if (!toBool(found.is_active)) return { ok: false, error: 'user_inactive', msg: t(req.lang, 'user_inactive') };
  if (new Date(found.date_expired).getTime() <= Date.now())
    return { ok: false, error: 'user_expired', msg: t(req.lang, 'user_expired') };
  const acl = await checkLoginAcl(req, found.id);
  if (acl) return { ok: false, error: acl.error, msg: acl.msg };
  await lockout.succeed(username, req.ip);
  const { password: _hash, ...user } = found;
  void _hash;
  await req.db
    .updateTable('users_user')
    .set({ last_login: new Date().toISOString() })
    .where('id', '=', user.id)
    .execute();
  return { ok: true, user };
}

/** Where to go after login: a same-site path only, never another host (no open redirect). */
export function safeNext(next: unknown, fallback = '/ui/'): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return fallback;
  if (next.startsWith('/core/auth/log')) return fallback;
  return next;
}
