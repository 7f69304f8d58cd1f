import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../../http/context.ts';
import { t } from '../../http/messages.ts';
import { verifyPassword } from '../../platform/crypto/password.ts';
import { toBool } from '../../platform/db/schema.ts';
import { findUserWithPassword } from './userLookup.ts';
import { notifyUser } from '../notifications/systemMessages.ts';
import { AddressLock, Lockout, type LockPolicy } from './lockout.ts';
import { ta } from './authMessages.ts';
import { writeLoginLog } from '../audits/loginLog.ts';
import { checkLoginAcl } from '../acls/loginAcl.ts';
import { consumeTempToken } from './profile/tempTokens.ts';
import { reviewSignIn } from './loginConfirm.ts';
import { providersFor, type ProviderOutcome } from './providers/index.ts';
import { signInExternal } from './providers/signIn.ts';

export type LoginOutcome =
  /** `backend`: the identity provider that vouched for the user (login log), absent for a local password. */
  | { ok: true; user: AuthUser; backend?: string }
  | {
      ok: false;
      error:
        | 'password_failed'
        | 'block_login'
        | 'block_ip'
        | 'user_inactive'
        | 'user_expired'
        | 'acl_not_allow'
        | 'login_acl_review'
        | 'login_confirm_wait'
        | 'login_confirm_error'
        | 'ldap_unavailable'
        | 'radius_unavailable'
        | 'user_not_exist'
        | 'user_invalid';
      msg: string;
      /** The login-confirm ticket and its user (`login_confirm_*`). */
      confirm?: { ticketId: string; userId: string; username: string };
      /** The identity provider asked (login log). */
      backend?: string;
    };

/** Checks the password (below) and writes a failure to the login log. */
export async function checkPasswordLogin(
  req: FastifyRequest,
  username: string,
  password: string,
): Promise<LoginOutcome> {
  const outcome = await checkPassword(req, username, password);
  // A sign-in waiting for approval is logged once decided, not at each poll.
  if (!outcome.ok && outcome.error !== 'login_confirm_wait')
    await writeLoginLog(req, {
      username,
      status: false,
      reason: outcome.error,
      mfa: 2,
      ...(outcome.backend ? { backend: outcome.backend } : {}),
    });
  return outcome;
}

/** The user lock's limits from the security settings. */
export async function loginPolicy(req: FastifyRequest): Promise<LockPolicy> {
  const { settings } = req.server.deps;
  return {
    limitCount: Number(await settings.get('SECURITY_LOGIN_LIMIT_COUNT')),
    limitMinutes: Number(await settings.get('SECURITY_LOGIN_LIMIT_TIME')),
  };
}

async function addressPolicy(req: FastifyRequest): Promise<LockPolicy> {
  const { settings } = req.server.deps;
  return {
    limitCount: Number(await settings.get('SECURITY_LOGIN_IP_LIMIT_COUNT')),
    limitMinutes: Number(await settings.get('SECURITY_LOGIN_IP_LIMIT_TIME')),
  };
}

export type CountedCheck = { ok: true } | { ok: false; blocked: true } | { ok: false; blocked: false; left: number };

/** Thrown by a check that could not be made (the directory did not answer): the attempt is given back. */
export class UncheckedAttempt extends Error {}

/**
 * Runs a password check of `username` behind the user lock: the attempt is counted before the
 * (slow) check, so concurrent guesses cannot outrun the limit (lockout.ts). Sign-in, password
 * re-verification and the old password of a password change all go through here.
 */
export async function countedPasswordCheck(
  req: FastifyRequest,
  username: string,
  policy: LockPolicy,
  check: () => Promise<boolean>,
): Promise<CountedCheck> {
  const lockout = new Lockout(req.server.deps.cache);
  const attempt = await lockout.attempt(username, req.ip, policy);
  if (!attempt.allowed) return { ok: false, blocked: true };
  let passed: boolean;
  try {
    passed = await check();
  } catch (e) {
    if (e instanceof UncheckedAttempt) await lockout.release(username, req.ip, policy);
    throw e;
  }
  if (passed) {
    await lockout.succeed(username, req.ip);
    return { ok: true };
  }
  const left = await lockout.failed(username, req.ip, policy, attempt);
  return left === 0 ? { ok: false, blocked: true } : { ok: false, blocked: false, left };
}

/**
 * Checks a username and password with the lock policy of the security settings:
 * the address lock first (password spraying across usernames), then the user lock; a blocked
 * username or address is refused before its password is even looked at.
 */
async function checkPassword(req: FastifyRequest, username: string, password: string): Promise<LoginOutcome> {
  const { cache } = req.server.deps;
  const policy = await loginPolicy(req);
  const ipPolicy = await addressPolicy(req);
  const blocked = {
    ok: false,
    error: 'block_login',
    msg: t(req.lang, 'block_login', { minutes: policy.limitMinutes }),
  } as const;
  const address = new AddressLock(cache);
  const ipAttempt = await address.attempt(req.ip, ipPolicy);
  if (!ipAttempt.allowed)
    return { ok: false, error: 'block_ip', msg: ta(req.lang, 'block_ip', { minutes: ipPolicy.limitMinutes }) };

  let found: Awaited<ReturnType<typeof findUserWithPassword>> | undefined;
  // An identity provider (LDAP, RADIUS) checks users of its source and usernames unknown here.
  let backend: string | undefined;
  let vouched: ProviderOutcome | undefined;
  let checked: CountedCheck;
  try {
    checked = await countedPasswordCheck(req, username, policy, async () => {
      found = await findUserWithPassword(req.db, username);
      const providers = await providersFor(req, found);
      const down: { backend: string; msg: string }[] = [];
      for (const provider of providers) {
        backend = provider.source;
        vouched = await provider.authenticate(req, username, password);
        if (vouched.ok) return true;
        if (vouched.error === 'unavailable') down.push({ backend, msg: vouched.msg });
      }
      // Not counted only when no provider could check the password at all.
      if (down[0] && down.length === providers.length) {
        backend = down[0].backend;
        throw new UncheckedAttempt(down[0].msg);
      }
      if (providers.length === 0 && (await verifyPassword(password, found?.password)) && Boolean(found)) return true;
      // A temporary password (profile/tempTokens.ts) signs in once in place of the password.
      return Boolean(found) && (await consumeTempToken(req, found!.id, password));
    });
  } catch (e) {
    if (!(e instanceof UncheckedAttempt)) throw e;
    await address.succeeded(req.ip, ipPolicy);
    return {
      ok: false,
      error: backend === 'radius' ? 'radius_unavailable' : 'ldap_unavailable',
      msg: e.message,
      backend,
    };
  }
  if (!checked.ok) {
    await address.failed(req.ip, ipPolicy, ipAttempt);
    if (checked.blocked) {
      // Told once, by the failure that closed the lock (a refused attempt never looks the user up).
      if (found) await notifyUser(req, found, 'account_locked', { minutes: policy.limitMinutes, what: 'login' });
      return { ...blocked, backend };
    }
    return {
      ok: false,
      error: 'password_failed',
      msg: t(req.lang, 'password_failed', { times: checked.left, minutes: policy.limitMinutes }),
      backend,
    };
  }
  await address.succeeded(req.ip, ipPolicy);
  if (vouched?.ok && backend) {
    const signed = await signInExternal(req, vouched.profile, backend);
    if (!signed.ok) return { ...signed, backend };
    found = signed.user;
  }
  const user = found!;
  if (!toBool(user.is_active)) return { ok: false, error: 'user_inactive', msg: t(req.lang, 'user_inactive'), backend };
  if (new Date(user.date_expired).getTime() <= Date.now())
    return { ok: false, error: 'user_expired', msg: t(req.lang, 'user_expired'), backend };
  const acl = await checkLoginAcl(req, user.id);
  if (acl?.error === 'login_acl_review') {
    const review = await reviewSignIn(req, user, acl);
    if (!review.ok)
      return {
        ok: false,
        error: review.error,
        msg: review.msg,
        confirm: review.ticketId ? { ticketId: review.ticketId, userId: user.id, username: user.username } : undefined,
        backend,
      };
  } else if (acl) return { ok: false, error: acl.error, msg: acl.msg, backend };
  const { password: _hash, ...rest } = user;
  void _hash;
  await req.db
    .updateTable('users_user')
    .set({ last_login: new Date().toISOString() })
    .where('id', '=', rest.id)
    .execute();
  return { ok: true, user: rest, ...(backend ? { backend } : {}) };
}

/** A stand-in for the site's own origin: `next` must resolve against it without leaving it. */
const SITE = 'https://gatehouse.invalid';

/**
 * Where to go after login: `next` parsed as a URL against the site's own origin, the way a browser
 * would (tabs and newlines stripped, `\\` read as `/`, `//host` a host), and accepted only when the
 * origin is unchanged; the answer is then the normalised path, query and fragment. Anything else
 * (absolute URLs, `//evil`, `/\t/evil`, `\\evil`, other schemes) gives the fallback: no open
 * redirect. The login and logout pages themselves are no destination.
 */
export function safeNext(next: unknown, fallback = '/ui/'): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return fallback;
  let url: URL;
  try {
    url = new URL(next, `${SITE}/`);
  } catch {
    return fallback;
  }
  if (url.origin !== SITE) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/core/auth/log')) return fallback;
  return target;
}
