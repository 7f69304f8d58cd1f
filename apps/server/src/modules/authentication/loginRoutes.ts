import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER, LOGIN_PATH, LOGOUT_PATH, SESSION_COOKIE, type LoginResult } from '@gatehouse/contract';
import { clearSessionCookies, setCsrfCookie, setSessionCookies } from '../../http/cookies.ts';
import { t } from '../../http/messages.ts';
import { randomToken } from '../../platform/crypto/password.ts';
import { sendConsolePage } from '../../http/console.ts';
import { checkPasswordLogin, safeNext } from './passwordLogin.ts';

interface LoginBody {
  username?: unknown;
  password?: unknown;
  auto_login?: unknown;
  next?: unknown;
}

function fail(reply: FastifyReply, status: number, error: string, msg: string): FastifyReply {
  const body: LoginResult = { ok: false, error, msg };
  return reply.code(status).send(body);
}

async function login(req: FastifyRequest<{ Body: LoginBody }>, reply: FastifyReply): Promise<FastifyReply> {
  // Login CSRF: the page echoes the cookie it was given; a cross-site form cannot.
  const cookie = req.cookies[CSRF_COOKIE];
  if (!cookie || req.headers[CSRF_HEADER.toLowerCase()] !== cookie) {
    return fail(reply, 403, 'csrf_failed', t(req.lang, 'csrf_failed'));
  }
  const body = req.body ?? {};
  const username = typeof body.username === 'string' ? body.username.trim() : '';
  const password = typeof body.password === 'string' ? body.password : '';
  if (!username || !password) return fail(reply, 400, 'field_required', t(req.lang, 'field_required'));

  const outcome = await checkPasswordLogin(req, username, password);
  if (!outcome.ok) return fail(reply, 400, outcome.error, outcome.msg);

  const autoLogin = body.auto_login === true || body.auto_login === 'on' || body.auto_login === '1';
  const age = await req.server.deps.settings.sessionAgeSeconds();
  if (req.session) await req.server.deps.sessions.destroy(req.session.id);
  const csrf = randomToken(24);
  const { key } = await req.server.deps.sessions.create(
    outcome.user.id,
    { csrf, auto_login: autoLogin, login_time: new Date().toISOString(), oid: req.org.id },
    age,
  );
  setSessionCookies(reply, key, autoLogin, age);
  setCsrfCookie(reply, csrf);
  const result: LoginResult = { ok: true, next: safeNext(body.next) };
  return reply.send(result);
}

async function logout(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const key = req.cookies[SESSION_COOKIE];
  if (key) {
    const session = await req.server.deps.sessions.load(key);
    if (session) await req.server.deps.sessions.destroy(session.id);
  }
  clearSessionCookies(reply);
  const next = (req.query as { next?: unknown }).next;
  const target = typeof next === 'string' && safeNext(next, '') ? `${LOGIN_PATH}?next=${encodeURIComponent(safeNext(next))}` : LOGIN_PATH;
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
}
