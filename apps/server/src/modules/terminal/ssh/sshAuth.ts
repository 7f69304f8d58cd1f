import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Language } from '@gatehouse/contract';
import type { AuthUser } from '../../../http/context.ts';
import { writeLoginLog } from '../../audits/loginLog.ts';
import { checkPasswordLogin } from '../../authentication/passwordLogin.ts';
import { loadMfaUser } from '../../authentication/mfa/mfaUser.ts';
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

export type PasswordStep = { ok: true; user: AuthUser; mfa: boolean } | { ok: false; msg: string };

/** The password step; a failure is counted and logged by the shared check. */
export async function sshPasswordStep(req: FastifyRequest, username: string, password: string): Promise<PasswordStep> {
  const outcome = await checkPasswordLogin(req, username, password);
  if (!outcome.ok) return { ok: false, msg: outcome.msg };
  const step = await mfaStepFor(req, outcome.user.id);
  if (!step.required) await writeLoginLog(req, { username, status: true, mfa: 0, backend: 'password' });
  return { ok: true, user: outcome.user, mfa: step.required };
}

/** The OTP step after a good password; counted by the MFA lock, logged either way. */
export async function sshOtpStep(
  req: FastifyRequest,
  user: AuthUser,
  code: string,
): Promise<{ ok: true } | { ok: false; msg: string }> {
  const mfaUser = await loadMfaUser(req, user.id);
  const check = mfaUser
    ? await verifyMfaCode(req, mfaUser, 'otp', code)
    : ({ ok: false, error: 'mfa_failed', msg: '' } as const);
  await writeLoginLog(req, {
    username: user.username,
    status: check.ok,
    reason: check.ok ? '' : check.error,
    mfa: 1,
    backend: 'password',
  });
  return check.ok ? { ok: true } : { ok: false, msg: check.msg };
}
