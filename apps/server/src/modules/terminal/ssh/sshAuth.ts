import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Language } from '@gatehouse/contract';
import type { AuthUser } from '../../../http/context.ts';
import ssh2 from 'ssh2';
import { checkLoginAcl } from '../../acls/loginAcl.ts';
import { writeLoginLog } from '../../audits/loginLog.ts';
import { Lockout } from '../../authentication/lockout.ts';
import { findUserWithPassword, isUsable } from '../../authentication/userLookup.ts';
import { checkPasswordLogin } from '../../authentication/passwordLogin.ts';
import { activeMfaBackends, loadMfaUser } from '../../authentication/mfa/mfaUser.ts';
import { mfaStepFor } from '../../authentication/mfa/mfaStep.ts';
import { verifyMfaCode } from '../../authentication/mfa/verifyMfa.ts';

/**
 * Sign-in of the native SSH server through the same checks as the web login: the address and user
 * locks, the user's state, the login ACL (all in `checkPasswordLogin`), then MFA by a code. The
 * checks take a request; an SSH connection has none, so it gets a stand-in holding what they read
 * (app, client address, language, `X-JMS-LOGIN-TYPE: T` for the login log).
 */
export function sshRequest(app: FastifyInstance, ip: string, lang: Language): FastifyRequest {
  return {
    server: app,
    ip,
    lang,
    db: app.deps.database.db,
    headers: { 'x-jms-login-type': 'T', 'user-agent': 'ssh' },
    log: app.log,
  } as unknown as FastifyRequest;
}

/** `backend`: who checked the password (`password`, or the user's provider: `ldap`, `radius`), for the login log. */
export type PasswordStep = { ok: true; user: AuthUser; mfa: boolean; backend: string } | { ok: false; msg: string };

/** The password step; a failure is counted and logged by the shared check. */
export async function sshPasswordStep(req: FastifyRequest, username: string, password: string): Promise<PasswordStep> {
  const outcome = await checkPasswordLogin(req, username, password);
  if (!outcome.ok) return { ok: false, msg: outcome.msg };
  const backend = outcome.backend ?? 'password';
  const step = await mfaStepFor(req, outcome.user.id);
  if (!step.required) await writeLoginLog(req, { username, status: true, mfa: 0, backend });
  return { ok: true, user: outcome.user, mfa: step.required, backend };
}

/**
 * The OTP step after a good password: the authenticator's code, or, for a user without one, the
 * RADIUS server's (OTP_IN_RADIUS); counted by the MFA lock, logged either way.
 */
export async function sshOtpStep(
  req: FastifyRequest,
  user: AuthUser,
  code: string,
  backend = 'password',
): Promise<{ ok: true } | { ok: false; msg: string }> {
  const mfaUser = await loadMfaUser(req, user.id);
  const type = mfaUser && !mfaUser.otp_secret_key && (await activeMfaBackends(req, mfaUser)).includes('otp_radius');
  const check = mfaUser
    ? await verifyMfaCode(req, mfaUser, type ? 'otp_radius' : 'otp', code)
    : ({ ok: false, error: 'mfa_failed', msg: '' } as const);
  await writeLoginLog(req, {
    username: user.username,
    status: check.ok,
    reason: check.ok ? '' : check.error,
    mfa: 1,
    backend,
  });
  return check.ok ? { ok: true } : { ok: false, msg: check.msg };
}

/**
 * The public-key step: the offered key must be the user's `public_key` (users_user, migration 0640)
 * and, once signed, the signature must verify. A locked user, an unusable one or a login ACL
 * refusal is refused as with a password. `probe` (no signature yet) only says whether the key fits.
 */
export async function sshKeyStep(
  req: FastifyRequest,
  username: string,
  key: { algo: string; data: Buffer },
  signed?: { blob: Buffer; signature: Buffer; hashAlgo?: string },
): Promise<PasswordStep | 'fits'> {
  const refused = { ok: false, msg: '' } as const;
  const row = await req.db
    .selectFrom('users_user')
    .select(['id', 'public_key'])
    .where('username', '=', username)
    .executeTakeFirst();
  if (!row?.public_key) return refused;
  const parsed = ssh2.utils.parseKey(row.public_key);
  if (parsed instanceof Error) return refused;
  const known = Array.isArray(parsed) ? parsed[0]! : parsed;
  if (known.type !== key.algo || !known.getPublicSSH().equals(key.data)) return refused;
  if (!signed) return 'fits';
  if (known.verify(signed.blob, signed.signature, signed.hashAlgo) !== true) return refused;
  const user = await findUserWithPassword(req.db, username);
  const fail = async (reason: string) => {
    await writeLoginLog(req, { username, status: false, reason, mfa: 2, backend: 'publickey' });
    return refused;
  };
  if (!user) return refused;
  if (await new Lockout(req.server.deps.cache).isBlocked(username)) return fail('block_login');
  if (!isUsable(user)) return fail('user_inactive');
  const acl = await checkLoginAcl(req, user.id);
  if (acl) return fail(acl.error);
  const { password: _hash, ...rest } = user;
  void _hash;
  const step = await mfaStepFor(req, user.id);
  if (!step.required) await writeLoginLog(req, { username, status: true, mfa: 0, backend: 'publickey' });
  return { ok: true, user: rest, mfa: step.required, backend: 'publickey' };
}
