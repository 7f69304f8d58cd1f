import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER, type LoginResult } from '@gatehouse/contract';
import { setCsrfCookie, setSessionCookies } from '../../http/cookies.ts';
import { randomToken } from '../../platform/crypto/password.ts';
import { clearFlow } from './authFlow.ts';
import { dropBrowserKey } from './browserKeys.ts';
import { loadFlow } from './authFlow.ts';
import { loginOrigin, writeLoginLog } from '../audits/loginLog.ts';
import { findActiveUser } from './userLookup.ts';
import { rememberLanguage } from '../notifications/userLanguage.ts';

/**
 * Ends a sign-in on the login page: a new session (startSession below), answered with the
 * `LoginResult` the page reads.
 */
export async function completeLogin(
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  autoLogin: boolean,
  next: string,
  /** How the user proved who they are, for the login log (a passkey is an MFA-level sign-in). */
  proof: SignInProof = {},
): Promise<FastifyReply> {
  await startSession(req, reply, userId, autoLogin, proof);
  const result: LoginResult = { ok: true, next };
  return reply.send(result);
}

export interface SignInProof {
  mfa?: 0 | 1;
  backend?: string;
  /** Kept in the session for the provider's sign-out (an OpenID Connect ID token). */
  sso?: Record<string, string>;
}

/**
 * A new session for a user who proved who they are (any previous one of this browser ends), its
 * cookies and CSRF token, the login log's success row, the pending-step state cleared, and the
 * browser's transport key dropped so the next page gets a new one. The login page answers JSON
 * after it (completeLogin), a provider's callback a redirect (sso/ssoFinish.ts).
 */
export async function startSession(
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  autoLogin: boolean,
  proof: SignInProof = {},
): Promise<void> {
  const { sessions, settings } = req.server.deps;
  const age = await settings.sessionAgeSeconds();
  if (req.session) await sessions.destroy(req.session.id);
  const flow = await loadFlow(req);
  const user = await findActiveUser(req.db, userId);
  // The sign-in's language becomes the user's (the login request itself is anonymous).
  if (user) await rememberLanguage(req.server.deps.database.db, user, req.lang);
  if (user)
    await writeLoginLog(req, {
      username: user.username,
      status: true,
      mfa: proof.mfa ?? (flow?.userId === userId ? 1 : 0),
      ...(proof.backend ? { backend: proof.backend } : {}),
    });
  const csrf = randomToken(24);
  const { key } = await sessions.create(
    userId,
    {
      csrf,
      auto_login: autoLogin,
      login_time: new Date().toISOString(),
      oid: req.org.id,
      ...(proof.sso ? { sso: proof.sso } : {}),
    },
    age,
    { ...loginOrigin(req), backend: proof.backend ?? 'password' },
  );
  setSessionCookies(reply, key, autoLogin, age);
  setCsrfCookie(reply, csrf);
  await clearFlow(req);
  await dropBrowserKey(req);
}

/** The login page's failure answer (`LoginResult`), with optional data for the next step. */
export function loginFail(
  reply: FastifyReply,
  status: number,
  error: string,
  msg: string,
  data?: Record<string, unknown>,
): FastifyReply {
  return reply.code(status).send({ ok: false, error, msg, ...(data ? { data } : {}) });
}

/** Login CSRF: the page echoes the cookie it was given; a cross-site form cannot. */
export function loginCsrfOk(req: FastifyRequest): boolean {
  const cookie = req.cookies[CSRF_COOKIE];
  return Boolean(cookie) && req.headers[CSRF_HEADER.toLowerCase()] === cookie;
}
