import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../http/messages.ts';
import { findActiveUser } from './userLookup.ts';
import { ta } from './authMessages.ts';
import { loadFlow, type AuthFlow } from './authFlow.ts';
import { completeLogin, loginCsrfOk, loginFail } from './completeLogin.ts';
import { loadMfaUser, type MfaUser } from './mfa/mfaUser.ts';
import { confirmOtpBinding, startOtpBinding } from './mfa/otpBinding.ts';
import { verifyMfaCode } from './mfa/verifyMfa.ts';
import { writeLoginLog } from '../audits/loginLog.ts';

/**
 * The login page's second step (`login/mfa/`, `profile/otp/enable/...`):
 * - `POST /core/auth/login/mfa/` `{mfa_type, code}` → LoginResult (`{ok: true, next}` signs in);
 * - when MFA is required but nothing is bound: `POST /core/auth/login/otp/start/` →
 *   `{otpauth_url, secret, qr_code, issuer}`, then `POST /core/auth/login/otp/bind/` `{code}` binds
 *   the authenticator and signs in.
 * All need the pending sign-in (10 minutes) and the login CSRF token.
 */
export const LOGIN_MFA_PATH = '/core/auth/login/mfa/';
export const LOGIN_OTP_START_PATH = '/core/auth/login/otp/start/';
export const LOGIN_OTP_BIND_PATH = '/core/auth/login/otp/bind/';

type Pending = { flow: AuthFlow; user: MfaUser };

async function pending(req: FastifyRequest, reply: FastifyReply): Promise<Pending | FastifyReply> {
  if (!loginCsrfOk(req)) return loginFail(reply, 403, 'csrf_failed', t(req.lang, 'csrf_failed'));
  const flow = await loadFlow(req);
  const user = flow && (await findActiveUser(req.db, flow.userId)) ? await loadMfaUser(req, flow.userId) : undefined;
  if (!flow || !user) return loginFail(reply, 400, 'session_empty', ta(req.lang, 'session_empty'));
  return { flow, user };
}

const field = (req: FastifyRequest, name: string) => {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
};

async function mfa(req: FastifyRequest, reply: FastifyReply) {
  const p = await pending(req, reply);
  if (!('flow' in p)) return p;
  const check = await verifyMfaCode(req, p.user, field(req, 'mfa_type') || 'otp', field(req, 'code'));
  if (!check.ok) {
    await writeLoginLog(req, {
      username: p.flow.username,
      status: false,
      reason: check.error,
      mfa: 1,
      ...(p.flow.backend ? { backend: p.flow.backend } : {}),
    });
    return loginFail(reply, 400, check.error, check.msg);
  }
  return completeLogin(req, reply, p.user.id, p.flow.autoLogin, p.flow.next, {
    ...(p.flow.backend ? { backend: p.flow.backend } : {}),
    ...(p.flow.sso ? { sso: p.flow.sso } : {}),
  });
}

async function otpStart(req: FastifyRequest, reply: FastifyReply) {
  const p = await pending(req, reply);
  if (!('flow' in p)) return p;
  const result = await startOtpBinding(req, p.user);
  return 'ok' in result ? loginFail(reply, 400, result.error, result.msg) : reply.send(result);
}

async function otpBind(req: FastifyRequest, reply: FastifyReply) {
  const p = await pending(req, reply);
  if (!('flow' in p)) return p;
  const result = await confirmOtpBinding(req, p.user, field(req, 'code'));
  if (!result.ok) return loginFail(reply, 400, result.error, result.msg);
  return completeLogin(req, reply, p.user.id, p.flow.autoLogin, p.flow.next, {
    ...(p.flow.backend ? { backend: p.flow.backend } : {}),
    ...(p.flow.sso ? { sso: p.flow.sso } : {}),
  });
}

export function registerLoginMfaRoutes(app: FastifyInstance): void {
  app.post(LOGIN_MFA_PATH, { config: { public: true } }, mfa);
  app.post(LOGIN_OTP_START_PATH, { config: { public: true } }, otpStart);
  app.post(LOGIN_OTP_BIND_PATH, { config: { public: true } }, otpBind);
}
