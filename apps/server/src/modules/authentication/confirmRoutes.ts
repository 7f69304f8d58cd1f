import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { verifyPassword } from '../../platform/crypto/password.ts';
import { findUserWithPassword } from './userLookup.ts';
import { ta } from './authMessages.ts';
import { decryptSecret } from './browserKeys.ts';
import { CONFIRM_TTL_SECONDS, isConfirmType, recordConfirm, type ConfirmType } from './confirm.ts';
import { countedPasswordCheck, loginPolicy, UncheckedAttempt, type CountedCheck } from './passwordLogin.ts';
import { providersFor } from './providers/index.ts';
import { activeMfaBackends, loadMfaUser, mfaEnabled, MFA_DISPLAY, type MfaType, type MfaUser } from './mfa/mfaUser.ts';
import { verifyMfaCode } from './mfa/verifyMfa.ts';
import { shape } from '../../resource/describe.ts';

/** `GET|POST /api/v1/authentication/confirm/`. */
const URL = '/api/v1/authentication/confirm/';
/** Users without a password here or in a directory: they re-verify by signing in again (and openid's too). */
const THIRD_PARTY_SOURCES = new Set(['cas', 'saml2', 'oauth2', 'openid']);

/** Candidate confirm types for a requested one, strongest first. */
const CANDIDATES: Record<ConfirmType, ConfirmType[]> = {
  relogin: ['mfa', 'password', 'relogin'],
  password: ['mfa', 'password'],
  mfa: ['mfa'],
};

async function fits(req: FastifyRequest, user: MfaUser, type: ConfirmType): Promise<boolean> {
  if (type === 'mfa') return (await mfaEnabled(req, user)) && (await activeMfaBackends(req, user)).length > 0;
  if (type === 'password') return !THIRD_PARTY_SOURCES.has(user.source);
  return THIRD_PARTY_SOURCES.has(user.source);
}

async function mfaContent(req: FastifyRequest, user: MfaUser) {
  const active = await activeMfaBackends(req, user);
  const offered: MfaType[] = ['otp'];
  if (await req.server.deps.settings.get('SMS_ENABLED')) offered.push('sms');
  if (await req.server.deps.settings.get('OTP_IN_RADIUS')) offered.push('otp_radius');
  return offered.map((name) => ({ name, disabled: !active.includes(name), ...MFA_DISPLAY[name] }));
}

async function getConfirm(req: FastifyRequest, reply: FastifyReply) {
  const requested = (req.query as { confirm_type?: string }).confirm_type ?? 'relogin';
  if (!isConfirmType(requested))
    return reply.code(400).send({ error: ta(req.lang, 'confirm_type_invalid', { type: requested }) });
  const user = (await loadMfaUser(req, req.user!.id))!;
  for (const type of CANDIDATES[requested]) {
    if (await fits(req, user, type))
      return { confirm_type: type, content: type === 'mfa' ? await mfaContent(req, user) : '' };
  }
  return reply.code(404).send({ error: ta(req.lang, 'confirm_no_backend') });
}

interface ConfirmBody {
  confirm_type?: unknown;
  mfa_type?: unknown;
  secret_key?: unknown;
}

async function checkPassword(req: FastifyRequest, secret: string): Promise<string | undefined> {
  const policy = await loginPolicy(req);
  const username = req.user!.username;
  // A confirmation is a sign-in in all but name: it is counted towards the same lock, before the hash.
  let checked: CountedCheck;
  try {
    checked = await countedPasswordCheck(req, username, policy, async () => {
      const found = await findUserWithPassword(req.db, username);
      if (!found) return false;
      // A directory user's password is the directory's (LDAP, RADIUS), as at sign-in.
      const [provider] = await providersFor(req, found);
      if (!provider) return verifyPassword(secret, found.password);
      const vouched = await provider.authenticate(req, username, secret);
      if (!vouched.ok && vouched.error === 'unavailable') throw new UncheckedAttempt(vouched.msg);
      return vouched.ok;
    });
  } catch (e) {
    if (e instanceof UncheckedAttempt) return e.message;
    throw e;
  }
  if (checked.ok) return undefined;
  if (checked.blocked) return ta(req.lang, 'block_mfa', { minutes: policy.limitMinutes });
  return ta(req.lang, 'confirm_password_failed');
}

async function postConfirm(req: FastifyRequest<{ Body: ConfirmBody }>, reply: FastifyReply) {
  const body = req.body ?? {};
  const type = body.confirm_type ?? 'relogin';
  if (!isConfirmType(type))
    return reply.code(400).send({ error: ta(req.lang, 'confirm_type_invalid', { type: String(type) }) });
  const secret = typeof body.secret_key === 'string' ? await decryptSecret(req, body.secret_key, 'secret_key') : '';
  let error: string | undefined;
  if (type === 'password') {
    error = secret ? await checkPassword(req, secret) : ta(req.lang, 'confirm_password_failed');
  } else if (type === 'mfa') {
    const user = (await loadMfaUser(req, req.user!.id))!;
    const mfaType = typeof body.mfa_type === 'string' && body.mfa_type ? body.mfa_type : 'otp';
    const check = await verifyMfaCode(req, user, mfaType, secret);
    if (!check.ok) error = check.msg;
  } else {
    const loginAt = req.session ? Date.parse(req.session.data.login_time) : NaN;
    if (!(Date.now() - loginAt < CONFIRM_TTL_SECONDS * 1000)) error = ta(req.lang, 'relogin_expired');
  }
  if (error) throw new ApiError(400, { error });
  await recordConfirm(req, type);
  return reply.type('application/json; charset=utf-8').send('"ok"');
}

export function registerConfirmRoutes(app: FastifyInstance): void {
  app.get(URL, { config: { describe: shape('confirm', { confirm_type: 'string', content: 'string' }) } }, getConfirm);
  app.post(URL, postConfirm);
}
