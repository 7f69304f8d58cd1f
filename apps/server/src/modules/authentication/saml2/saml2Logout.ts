import { inflateRawSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Profile } from '@node-saml/node-saml';
import { LOGIN_PATH, SESSION_COOKIE } from '@gatehouse/contract';
import { clearSessionCookies } from '../../../http/cookies.ts';
import { SSO_FLOW_TTL_SECONDS } from '../sso/ssoFlow.ts';
import { loadIdpMetadata } from './idpMetadata.ts';
import { SAML2_LOGOUT_PATH, samlFor } from './saml2Routes.ts';

/**
 * SAML single logout (@node-saml/node-saml, the HTTP-Redirect binding, and HTTP-POST for the
 * IdP's requests):
 * - SP-initiated: signing out of a SAML2 session under SAML2_LOGOUT_COMPLETELY sends the browser
 *   to the IdP's SingleLogoutService with a LogoutRequest signed by the SP key (naming the
 *   session's NameID and SessionIndex, kept at sign-in). Without an SP key or an IdP logout
 *   service the sign-out stays local. The IdP's LogoutResponse comes back to
 *   `/core/auth/saml2/logout/`: it must be signed and answer a request sent here (InResponseTo,
 *   the request IDs in the shared cache, used once); the browser lands on the login page, with
 *   `?error=slo_failed` when the answer was refused (signed out here, not confirmed there).
 * - IdP-initiated: a LogoutRequest at the same path, signed (node-saml accepts an unsigned
 *   Redirect message; this refuses it), issued within the last 5 minutes and seen once, ends every
 *   session signed in through SAML2 with that NameID (and SessionIndex when it names one), on every
 *   instance (sessions live in the database); the answer is a LogoutResponse to the IdP.
 */
const FRESH_MS = 5 * 60_000;
const MAX_MESSAGE = 1 << 20;

/** Where signing out of a SAML2 session goes: the IdP with a signed LogoutRequest, or undefined. */
export async function saml2LogoutUrl(req: FastifyRequest, sso: Record<string, string>): Promise<string | undefined> {
  const { settings } = req.server.deps;
  if (!(await settings.valueOf('SAML2_LOGOUT_COMPLETELY')) || !sso.nameID) return undefined;
  if (!(await settings.secret('SAML2_SP_KEY_CONTENT'))) return undefined;
  try {
    const idp = await loadIdpMetadata(settings);
    if (!idp.sloUrl) return undefined;
    const saml = await samlFor(req, undefined, idp);
    const who = { issuer: idp.entityId, nameID: sso.nameID, nameIDFormat: sso.nameIDFormat ?? '' } as Profile;
    if (sso.sessionIndex) who.sessionIndex = sso.sessionIndex;
    return await saml.getLogoutUrlAsync(who, '', {});
  } catch (e) {
    req.log.warn({ err: e }, 'SAML2 single logout: the request could not be made; signed out here only');
    return undefined;
  }
}

/** The raw query string (the Redirect binding's signature covers it as sent). */
const rawQuery = (req: FastifyRequest) => {
  const i = req.url.indexOf('?');
  return i < 0 ? '' : req.url.slice(i + 1);
};

function messageXml(value: string, deflated: boolean): string {
  const data = Buffer.from(value, 'base64');
  return (deflated ? inflateRawSync(data, { maxOutputLength: MAX_MESSAGE }) : data).toString('utf8');
}

/** IssueInstant within FRESH_MS of now, and the message ID not seen before (shared cache). */
async function freshAndOnce(req: FastifyRequest, xml: string): Promise<boolean> {
  const instant = /\sIssueInstant="([^"]+)"/.exec(xml)?.[1];
  const id = /<(?:[\w.-]+:)?Logout(?:Request|Response)\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  const at = instant ? Date.parse(instant) : NaN;
  if (!id || !Number.isFinite(at) || Math.abs(Date.now() - at) > FRESH_MS) return false;
  return (await req.server.deps.cache.incr(`saml_slo:${id.slice(0, 200)}`, SSO_FLOW_TTL_SECONDS)) === 1;
}

/** Ends the SAML2 sessions of this NameID (and SessionIndex): their ids. */
async function endSessions(req: FastifyRequest, nameID: string, sessionIndex?: string): Promise<string[]> {
  const rows = await req.db.selectFrom('auth_session').select(['id', 'data']).where('backend', '=', 'saml2').execute();
  const ended: string[] = [];
  for (const r of rows) {
    let sso: Record<string, string> | undefined;
    try {
      sso = (JSON.parse(r.data) as { sso?: Record<string, string> }).sso;
    } catch {
      continue;
    }
    if (sso?.nameID !== nameID) continue;
    if (sessionIndex && sso.sessionIndex && sso.sessionIndex !== sessionIndex) continue;
    await req.server.deps.sessions.destroy(r.id);
    ended.push(r.id);
  }
  return ended;
}

async function logoutService(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const post = req.method === 'POST';
  const msg = ((post ? req.body : req.query) ?? {}) as Record<string, string>;
  const isRequest = typeof msg.SAMLRequest === 'string';
  const value = isRequest ? msg.SAMLRequest : msg.SAMLResponse;
  if (typeof value !== 'string' || !value || value.length > MAX_MESSAGE)
    return reply.code(400).send({ error: 'no SAML message' });
  try {
    const saml = await samlFor(req);
    const xml = messageXml(value, !post);
    if (!isRequest) {
      // Our own request's answer: signed, answering a request sent from here (InResponseTo, once).
      if (post || !msg.Signature || !/\sInResponseTo="[^"]+"/.test(xml))
        throw new Error('unsigned or unsolicited LogoutResponse');
      await saml.validateRedirectAsync(msg, rawQuery(req));
      // node-saml checks the request ID but leaves it in the cache: the answer counts once.
      const inResponseTo = /\sInResponseTo="([^"]+)"/.exec(xml)![1]!;
      await req.server.deps.cache.delete(`saml_req:${inResponseTo}`);
      if (!(await freshAndOnce(req, xml))) throw new Error('LogoutResponse too old or replayed');
      return reply.redirect(LOGIN_PATH);
    }
    if (!post && !msg.Signature) throw new Error('unsigned LogoutRequest');
    const { profile } = post
      ? await saml.validatePostRequestAsync({ SAMLRequest: value })
      : await saml.validateRedirectAsync(msg, rawQuery(req));
    if (!profile?.nameID) throw new Error('no NameID');
    if (!(await freshAndOnce(req, xml))) throw new Error('LogoutRequest too old or replayed');
    const key = req.cookies[SESSION_COOKIE];
    const mine = key ? (await req.server.deps.sessions.load(key))?.id : undefined;
    const ended = await endSessions(
      req,
      profile.nameID,
      typeof profile.sessionIndex === 'string' ? profile.sessionIndex : undefined,
    );
    req.log.info({ sessions: ended.length }, 'SAML2 single logout from the IdP');
    if (mine && ended.includes(mine)) clearSessionCookies(reply);
    return reply.redirect(await saml.getLogoutResponseUrlAsync(profile, msg.RelayState ?? '', {}, true));
  } catch (e) {
    req.log.warn({ err: e }, 'SAML2 single logout refused');
    // Signed out here already; the page says the IdP's sign-out was not confirmed.
    if (!isRequest) return reply.redirect(`${LOGIN_PATH}?error=slo_failed`);
    return reply.code(400).send({ error: 'The logout request was refused.' });
  }
}

export function registerSaml2LogoutRoutes(app: FastifyInstance): void {
  app.get(SAML2_LOGOUT_PATH, { config: { public: true } }, logoutService);
  app.post(SAML2_LOGOUT_PATH, { config: { public: true } }, logoutService);
}
