import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CSRF_HEADER,
  LANGUAGE_COOKIE,
  SESSION_COOKIE,
  SQL_COUNT_HEADER,
  TZ_HEADER,
  resolveLanguage,
} from '@gatehouse/contract';
import { isValidTimeZone } from './datetime.ts';
import { QueryCounter } from '../platform/db/queryCounter.ts';

import type { AuthUser } from './context.ts';
import { notAuthenticated } from './errors.ts';
import { setPrefixCookie } from './cookies.ts';
import { resolveOrg } from './org.ts';
import { tokenUser } from './bearerTokens.ts';
import { findActiveUser } from '../modules/users/userRepo.ts';
import { sessionOverLimits } from './sessionLimits.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function acceptLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((p) => p.split(';')[0]!.trim())
    .filter(Boolean);
}

async function identifyBearer(req: FastifyRequest, token: string): Promise<AuthUser> {
  const userId = await tokenUser(req.server.deps, token);
  const user = userId ? await findActiveUser(req.db, userId) : undefined;
  if (!user) throw notAuthenticated(req, 'invalid_token');
  return user;
}

/**
 * Identifies the caller: `Authorization: Bearer`, else the session cookie. A session on an unsafe
 * method (or a state-changing GET) needs `X-CSRFToken` equal to the session's token; without it the request is anonymous and
 * so ends as 401 (api-contract §1.2, §7).
 */
async function identifySession(req: FastifyRequest, key: string): Promise<void> {
  const { sessions } = req.server.deps;
  const session = await sessions.load(key);
  if (!session) return;
  if (await sessionOverLimits(req.server.deps.settings, session)) {
    await sessions.destroy(session.id);
    return;
  }
  // A GET the contract keeps although it changes state (`config: { changesState: true }`) needs the
  // token like an unsafe method: a link on another site, followed with the Lax cookie, cannot set it.
  const needsCsrf = !SAFE_METHODS.has(req.method) || Boolean(req.routeOptions.config?.changesState);
  if (needsCsrf && req.headers[CSRF_HEADER.toLowerCase()] !== session.data.csrf) return;
  const user = await findActiveUser(req.db, session.userId);
  if (!user) return;
  req.session = session;
  req.user = user;
  req.authMethod = 'session';
  const ttl = await req.server.deps.settings.sessionAgeSeconds();
  await sessions.touch(session, ttl);
}

export function registerIdentification(app: FastifyInstance): void {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('tz', 'UTC');
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  app.decorateRequest('authMethod', null);

  app.addHook('onRequest', async (req) => {
    req.lang = resolveLanguage(req.cookies[LANGUAGE_COOKIE], acceptLanguages(req.headers['accept-language']));
    const tz = req.headers[TZ_HEADER.toLowerCase()];
    req.tz = typeof tz === 'string' && isValidTimeZone(tz) ? tz : 'UTC';
    req.queryCount = { count: 0 };
    req.db = app.deps.database.db.withPlugin(new QueryCounter(req.queryCount));
    req.user = null;
    req.session = null;
    req.authMethod = null;

    const authz = req.headers.authorization;
    if (authz && /^Bearer\s+/i.test(authz)) {
      req.user = await identifyBearer(req, authz.replace(/^Bearer\s+/i, '').trim());
      req.authMethod = 'bearer';
    } else {
      const key = req.cookies[SESSION_COOKIE];
      if (key) await identifySession(req, key);
    }
    req.org = await resolveOrg(req, await app.deps.settings.globalOrgName());
    if (!req.routeOptions.config?.public && !req.user && req.url.startsWith('/api/')) throw notAuthenticated(req);
  });

  app.addHook('onSend', async (req, reply) => {
    setPrefixCookie(reply);
    if (req.url.startsWith('/api/')) reply.header(SQL_COUNT_HEADER, String(req.queryCount.count));
  });
}
