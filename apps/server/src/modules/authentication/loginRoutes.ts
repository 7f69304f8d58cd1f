import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, LOGIN_PATH, LOGOUT_PATH, SESSION_COOKIE } from '@gatehouse/contract';
import { clearSessionCookies, setCsrfCookie } from '../../http/cookies.ts';
import { ApiError } from '../../http/errors.ts';
import { t } from '../../http/messages.ts';
import { sendConsolePage } from '../../http/console.ts';
import { ta } from './authMessages.ts';
import { saveFlow } from './authFlow.ts';
import { decryptSecret } from './browserKeys.ts';
import { completeLogin, loginCsrfOk, loginFail } from './completeLogin.ts';
import { registerLoginMfaRoutes, LOGIN_MFA_PATH, LOGIN_OTP_START_PATH } from './loginMfaRoutes.ts';
import { mfaStepFor } from './mfa/mfaStep.ts';
import { checkPasswordLogin, safeNext } from './passwordLogin.ts';
import { registerLoginConfirmRoutes, saveWaitingFlow } from './loginConfirm.ts';
import { providerLogoutUrl } from './sso/ssoLogout.ts';

interface LoginBody {
  username?: unknown;
  password?: unknown;
  auto_login?: unknown;
  next?: unknown;
}

/**
 * `POST /core/auth/login/` `{username, password (plain or encrypted), auto_login, next}`. When the
 * user needs MFA the answer is 200 `{ok: false, error: "mfa_required", msg, data: {choices, url}}`
 * and the page posts the code to `url`; when MFA is required but nothing is bound,
 * `error: "mfa_unset"` with `data.url` to bind an authenticator first.
 */
async function login(req: FastifyRequest<{ Body: LoginBody }>, reply: FastifyReply): Promise<FastifyReply> {
  if (!loginCsrfOk(req)) return loginFail(reply, 403, 'csrf_failed', t(req.lang, 'csrf_failed'));
  const body = req.body ?? {};
  const username = typeof body.username === 'string' ? body.username.trim() : '';
  let password = typeof body.password === 'string' ? body.password : '';
  try {
    if (password) password = await decryptSecret(req, password);
  } catch (e) {
    if (e instanceof ApiError) return loginFail(reply, 400, 'decrypt_failed', ta(req.lang, 'decrypt_failed'));
    throw e;
  }
  if (!username || !password) return loginFail(reply, 400, 'field_required', t(req.lang, 'field_required'));

  const autoLogin = body.auto_login === true || body.auto_login === 'on' || body.auto_login === '1';
  const next = safeNext(body.next);
  const outcome = await checkPasswordLogin(req, username, password);
  if (!outcome.ok && outcome.confirm) {
    const { ticketId, userId } = outcome.confirm;
    if (outcome.error === 'login_confirm_wait')
      await saveWaitingFlow(req, reply, {
        userId,
        username: outcome.confirm.username,
        autoLogin,
        next,
        confirmTicketId: ticketId,
      });
    return loginFail(reply, 200, outcome.error, outcome.msg, {
      ticket_id: ticketId,
      username: outcome.confirm.username,
    });
  }
  if (!outcome.ok) return loginFail(reply, 400, outcome.error, outcome.msg);

  const step = await mfaStepFor(req, outcome.user.id);
  const backend = outcome.backend ? { backend: outcome.backend } : {};
  if (!step.required) return completeLogin(req, reply, outcome.user.id, autoLogin, next, backend);
  await saveFlow(req, reply, {
    userId: outcome.user.id,
    username: outcome.user.username,
    mfaOk: false,
    autoLogin,
    next,
    at: Date.now(),
    ...backend,
  });
  if (!step.choices.length)
    return loginFail(reply, 200, 'mfa_unset', ta(req.lang, 'mfa_unset'), { url: LOGIN_OTP_START_PATH });
  return loginFail(reply, 200, 'mfa_required', ta(req.lang, 'mfa_required'), {
    choices: step.choices,
    url: LOGIN_MFA_PATH,
  });
}

async function logout(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const key = req.cookies[SESSION_COOKIE];
  let provider: string | undefined;
  if (key) {
    const session = await req.server.deps.sessions.load(key);
    if (session) {
      await req.server.deps.sessions.destroy(session.id);
      // Signed in through a provider that shares its session: sign out there too.
      provider = await providerLogoutUrl(req, session.data.sso);
    }
  }
  clearSessionCookies(reply);
  if (provider) return reply.redirect(provider);
  const next = (req.query as { next?: unknown }).next;
  const target =
    typeof next === 'string' && safeNext(next, '')
      ? `${LOGIN_PATH}?next=${encodeURIComponent(safeNext(next))}`
      : LOGIN_PATH;
  return reply.redirect(target);
}

export function registerLoginRoutes(app: FastifyInstance): void {
  app.get(LOGIN_PATH, { config: { public: true } }, async (req, reply) => {
    if (req.user) return reply.redirect(safeNext((req.query as { next?: unknown }).next));
    if (!req.cookies[CSRF_COOKIE]) setCsrfCookie(reply);
    return sendConsolePage(req, reply, 'login.html');
  });
  app.post(LOGIN_PATH, { config: { public: true } }, login);
  app.get(LOGOUT_PATH, { config: { public: true } }, logout);
  app.post(LOGOUT_PATH, { config: { public: true } }, logout);
  registerLoginMfaRoutes(app);
  registerLoginConfirmRoutes(app);
}
