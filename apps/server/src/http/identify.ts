import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CSRF_HEADER,
  LANGUAGE_COOKIE,
  SESSION_COOKIE,
  SQL_COUNT_HEADER,
  SQL_DEBUG_HEADER,
  TZ_HEADER,
  resolveLanguage,
  type Language,
} from '@gatehouse/contract';
import { isValidTimeZone } from './datetime.ts';
import { QueryCounter } from '../platform/db/queryCounter.ts';

import type { AuthUser } from './context.ts';
import { notAuthenticated } from './errors.ts';
import { setPrefixCookie } from './cookies.ts';
import { resolveOrg } from './org.ts';
import { identitySourceOf, type IdentitySource } from './identitySource.ts';
import { tokenUser } from './bearerTokens.ts';
import { credentialSchemeFor, identifyWithScheme } from './credentialSchemes.ts';
import { sessionOverLimits } from './sessionLimits.ts';
import { requestPerms } from './permissions.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The language a request names (the language cookie or Accept-Language), resolved as for the
 * reply; undefined when it names none (a script without the header does not reset the user's).
 */
function namedLanguage(req: FastifyRequest): Language | undefined {
  if (!req.cookies[LANGUAGE_COOKIE] && !req.headers['accept-language']) return undefined;
  return req.lang;
}

/** The user's stored language follows their signed-in requests; never fails the request. */
async function rememberLanguage(req: FastifyRequest, source: IdentitySource): Promise<void> {
  const lang = namedLanguage(req);
  if (!req.user || !lang) return;
  // The deps handle, not req.db: a write once per change is not the request's query count.
  await source.rememberLanguage(req.server.deps.database.db, req.user, lang).catch((e: Error) => {
    req.log.warn({ err: e.message }, 'could not store the user language');
  });
}

function acceptLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((p) => p.split(';')[0]!.trim())
    .filter(Boolean);
}

async function identifyBearer(req: FastifyRequest, source: IdentitySource, token: string): Promise<AuthUser> {
  const userId = await tokenUser(req.server.deps, token);
  const user = userId ? await source.findActiveUser(req.db, userId) : undefined;
  if (!user) throw notAuthenticated(req, 'invalid_token');
  return user;
}

/**
 * Identifies the caller: `Authorization: Bearer`, a registered scheme (`Signature`, `Token`:
 * `credentialSchemes.ts`), else the session cookie. A session on an unsafe
 * method (or a state-changing GET) needs `X-CSRFToken` equal to the session's token; without it the request is anonymous and
 * so ends as 401.
 */
async function identifySession(req: FastifyRequest, source: IdentitySource, key: string): Promise<void> {
  const { sessions } = req.server.deps;
  const session = await sessions.load(key);
  if (!session) return;
  const limits = await source.sessionSettings();
  if (sessionOverLimits(limits, session)) {
    await sessions.destroy(session.id);
    return;
  }
  // A GET the contract keeps although it changes state (`config: { changesState: true }`) needs the
  // token like an unsafe method: a link on another site, followed with the Lax cookie, cannot set it.
  const needsCsrf = !SAFE_METHODS.has(req.method) || Boolean(req.routeOptions.config?.changesState);
  if (needsCsrf && req.headers[CSRF_HEADER.toLowerCase()] !== session.data.csrf) return;
  const user = await source.findActiveUser(req.db, session.userId);
  if (!user) return;
  req.session = session;
  req.user = user;
  req.authMethod = 'session';
  await sessions.touch(session, limits.cookieAgeSeconds);
}

/** The query count tells an attacker about the data behind a request: superusers only, unless in debug mode. */
async function sqlCountAllowed(req: FastifyRequest): Promise<boolean> {
  if (req.server.deps.config.debug) return true;
  if (!req.user) return false;
  try {
    return (await requestPerms(req)).isSuperuser;
  } catch {
    return false;
  }
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

    const source = identitySourceOf(app);
    const authz = req.headers.authorization;
    const scheme = authz ? credentialSchemeFor(app, authz) : undefined;
    if (authz && /^Bearer\s+/i.test(authz)) {
      req.user = await identifyBearer(req, source, authz.replace(/^Bearer\s+/i, '').trim());
      req.authMethod = 'bearer';
    } else if (scheme) {
      // API keys (`Signature`) and private tokens (`Token`): registered by modules/authentication.
      req.user = await identifyWithScheme(req, scheme.scheme, scheme.credentials);
      req.authMethod = scheme.scheme.method;
    } else {
      const key = req.cookies[SESSION_COOKIE];
      if (key) await identifySession(req, source, key);
    }
    await rememberLanguage(req, source);
    req.org = await resolveOrg(req, await source.globalOrgName());
    if (!req.routeOptions.config?.public && !req.user && req.url.startsWith('/api/')) throw notAuthenticated(req);
  });

  app.addHook('onSend', async (req, reply) => {
    setPrefixCookie(reply);
    if (req.url.startsWith('/api/') && req.headers[SQL_DEBUG_HEADER.toLowerCase()] === '1') {
      const count = req.queryCount.count;
      if (await sqlCountAllowed(req)) reply.header(SQL_COUNT_HEADER, String(count));
    }
  });
}
