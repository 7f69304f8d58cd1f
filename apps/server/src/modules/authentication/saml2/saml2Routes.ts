import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  generateServiceProviderMetadata,
  SAML,
  ValidateInResponseTo,
  type CacheProvider,
  type Profile,
} from '@node-saml/node-saml';
import type { Cache } from '../../../platform/cache/cache.ts';
import { beginSso, SSO_FLOW_TTL_SECONDS, takeSso } from '../sso/ssoFlow.ts';
import { finishSso, mapProfile, refuseSso } from '../sso/ssoFinish.ts';
import { siteUrl } from '../sso/ssoSite.ts';
import { IdpMetadataError, loadIdpMetadata, type IdpMetadata } from './idpMetadata.ts';

/**
 * SAML2 sign-in (@node-saml/node-saml), JumpServer's paths: `GET /core/auth/saml2/login/?next=`
 * sends an AuthnRequest (HTTP-Redirect, signed with the SP key when one is set) whose ID the flow
 * keeps; `POST /core/auth/saml2/callback/` (the ACS) takes the flow named by RelayState once and
 * accepts only a response answering that request (InResponseTo), signed by a certificate of the
 * IdP's metadata, for our audience, in its validity window: a replayed response finds its flow and
 * its request ID used. `GET /core/auth/saml2/metadata/` serves the SP metadata.
 */
export const SAML2_LOGIN_PATH = '/core/auth/saml2/login/';
export const SAML2_CALLBACK_PATH = '/core/auth/saml2/callback/';
export const SAML2_METADATA_PATH = '/core/auth/saml2/metadata/';
/** Single logout: the IdP's LogoutResponse and its own LogoutRequests (saml2/saml2Logout.ts). */
export const SAML2_LOGOUT_PATH = '/core/auth/saml2/logout/';
const BACKEND = 'saml2';

/** node-saml's request-ID store in the shared cache (every instance sees the IDs). */
function cacheProvider(cache: Cache): CacheProvider {
  const key = (k: string) => `saml_req:${k}`;
  return {
    async saveAsync(k, value) {
      await cache.set(key(k), value, SSO_FLOW_TTL_SECONDS);
      return { value, createdAt: Date.now() };
    },
    async getAsync(k) {
      return (await cache.get<string>(key(k))) ?? null;
    },
    async removeAsync(k) {
      if (!k) return null;
      const v = (await cache.get<string>(key(k))) ?? null;
      await cache.delete(key(k));
      return v;
    },
  };
}

async function spSettings(req: FastifyRequest) {
  const { settings } = req.server.deps;
  const key = await settings.secret('SAML2_SP_KEY_CONTENT');
  const cert = String((await settings.valueOf('SAML2_SP_CERT_CONTENT')) ?? '').trim();
  return {
    issuer: await siteUrl(req, SAML2_METADATA_PATH),
    callbackUrl: await siteUrl(req, SAML2_CALLBACK_PATH),
    ...(key ? { privateKey: key } : {}),
    ...(cert ? { publicCert: cert } : {}),
  };
}

export async function samlFor(req: FastifyRequest, requestId?: string, idp?: IdpMetadata): Promise<SAML> {
  idp ??= await loadIdpMetadata(req.server.deps.settings);
  const sp = await spSettings(req);
  return new SAML({
    ...sp,
    entryPoint: idp.ssoUrl,
    logoutUrl: idp.sloUrl ?? idp.ssoUrl,
    logoutCallbackUrl: await siteUrl(req, SAML2_LOGOUT_PATH),
    idpIssuer: idp.entityId,
    idpCert: idp.certs,
    audience: sp.issuer,
    identifierFormat: null,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SSO_FLOW_TTL_SECONDS * 1000,
    cacheProvider: cacheProvider(req.server.deps.cache),
    acceptedClockSkewMs: 60_000,
    // Requests signed with the SP key (the AuthnRequest, the LogoutRequest): RSA-SHA256, not node-saml's SHA-1 default.
    signatureAlgorithm: 'sha256',
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

async function login(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (!(await req.server.deps.settings.valueOf('AUTH_SAML2')))
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_disabled' });
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const state = await beginSso(req, reply, BACKEND, { requestId });
  let url: string;
  try {
    url = await (await samlFor(req, requestId)).getAuthorizeUrlAsync(state, undefined, {});
  } catch (e) {
    // Metadata that does not parse, or an SP key that does not sign: refused, never a 500.
    req.log.warn({ err: e }, 'SAML2 sign-in: the request could not be made');
    const reason = e instanceof IdpMetadataError ? 'metadata_invalid' : 'provider_failed';
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason });
  }
  return reply.redirect(url);
}

/** The profile's fields by SAML2_RENAME_ATTRIBUTES (IdP attribute → our field); the NameID as username otherwise. */
function claimsOf(profile: Profile, rename: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { username: profile.nameID };
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const [from, to] of Object.entries(rename)) {
    const v = attributes[from] ?? (profile as Record<string, unknown>)[from];
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string' && first) out[to] = first;
  }
  return out;
}

async function callback(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  // The IdP's page posts here from another site: the Lax browser cookie does not come along.
  const flow = await takeSso(req, BACKEND, body.RelayState, false);
  if (!flow) return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'state_invalid' });
  if (!(await req.server.deps.settings.valueOf('AUTH_SAML2')))
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_disabled' });
  if (typeof body.SAMLResponse !== 'string' || body.SAMLResponse.length > 1 << 20)
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_failed' });
  let profile: Profile | null;
  try {
    const saml = await samlFor(req);
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
  } catch (e) {
    req.log.warn({ err: e }, 'SAML2 sign-in refused');
    const reason = e instanceof IdpMetadataError ? 'metadata_invalid' : 'provider_failed';
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason });
  }
  // The response answers this flow's own request, not another one's (RelayState is not signed).
  if (!profile || profile.inResponseTo !== flow.requestId)
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'state_invalid' });
  const { settings } = req.server.deps;
  const rename = (await settings.valueOf('SAML2_RENAME_ATTRIBUTES')) as Record<string, string>;
  const mapped = mapProfile(
    claimsOf(profile, rename ?? {}),
    { username: 'username', name: 'name', email: 'email' },
    await settings.get('EMAIL_SUFFIX'),
  );
  if (!mapped) return refuseSso(req, reply, BACKEND, 'user_invalid', { reason: 'user_invalid' });
  // What a LogoutRequest names the session by (single logout, saml2/saml2Logout.ts).
  const sso: Record<string, string> = { nameID: profile.nameID };
  if (profile.nameIDFormat) sso.nameIDFormat = profile.nameIDFormat;
  if (typeof profile.sessionIndex === 'string') sso.sessionIndex = profile.sessionIndex;
  return finishSso(req, reply, BACKEND, mapped, flow.next, sso);
}

async function metadata(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const sp = await spSettings(req);
  const logoutUrl = await siteUrl(req, SAML2_LOGOUT_PATH);
  const generated = generateServiceProviderMetadata({
    issuer: sp.issuer,
    callbackUrl: sp.callbackUrl,
    logoutCallbackUrl: logoutUrl,
    identifierFormat: null,
    wantAssertionsSigned: true,
    ...(sp.publicCert ? { publicCerts: sp.publicCert } : {}),
    ...(sp.privateKey && sp.publicCert ? { privateKey: sp.privateKey, signMetadata: false } : {}),
  });
  // node-saml names the HTTP-POST binding of the logout service; the HTTP-Redirect one answers there too.
  const location = logoutUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const xml = generated.replace(
    /<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="[^"]*"\/>/,
    (post) =>
      `${post}<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${location}"/>`,
  );
  return reply.type('application/xml; charset=utf-8').send(xml);
}

export function registerSaml2Routes(app: FastifyInstance): void {
  app.get(SAML2_LOGIN_PATH, { config: { public: true } }, login);
  app.post(SAML2_CALLBACK_PATH, { config: { public: true } }, callback);
  app.get(SAML2_METADATA_PATH, { config: { public: true } }, metadata);
}
