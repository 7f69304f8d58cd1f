import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { beginSso, takeSso } from '../sso/ssoFlow.ts';
import { finishSso, mapProfile, refuseSso } from '../sso/ssoFinish.ts';
import { siteUrl } from '../sso/ssoSite.ts';
import { loadOidcSettings, oidcConfiguration } from './config.ts';

/**
 * OpenID Connect sign-in (openid-client 6), JumpServer's paths: `GET /core/auth/openid/login/?next=`
 * sends the browser to the provider (authorization code flow with state, and the nonce and PKCE
 * as the settings say); `GET /core/auth/openid/callback/` takes the code once, for the browser
 * that started the flow, exchanges it, checks the ID token (signature, issuer, audience, expiry,
 * nonce by openid-client; its age against AUTH_OPENID_ID_TOKEN_MAX_AGE here), reads the userinfo
 * endpoint when there is one and ends like every provider sign-in (sso/ssoFinish.ts).
 */
export const OIDC_LOGIN_PATH = '/core/auth/openid/login/';
export const OIDC_CALLBACK_PATH = '/core/auth/openid/callback/';
const BACKEND = 'openid';

async function enabled(req: FastifyRequest): Promise<boolean> {
  return Boolean(await req.server.deps.settings.valueOf('AUTH_OPENID'));
}

async function login(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (!(await enabled(req))) return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_disabled' });
  const s = await loadOidcSettings(req.server.deps.settings);
  let config: client.Configuration;
  try {
    config = await oidcConfiguration(req.server.deps.settings);
  } catch (e) {
    req.log.warn({ err: e }, 'OpenID sign-in: the provider could not be read');
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_failed' });
  }
  const verifier = s.pkce ? client.randomPKCECodeVerifier() : undefined;
  const nonce = s.useNonce ? client.randomNonce() : undefined;
  const state = await beginSso(req, reply, BACKEND, { verifier, nonce });
  const params: Record<string, string> = {
    redirect_uri: await siteUrl(req, OIDC_CALLBACK_PATH),
    scope: s.scopes,
    state,
    ...(nonce ? { nonce } : {}),
  };
  if (verifier) {
    params.code_challenge =
      s.challengeMethod === 'plain' ? verifier : await client.calculatePKCECodeChallenge(verifier);
    params.code_challenge_method = s.challengeMethod;
  }
  return reply.redirect(client.buildAuthorizationUrl(config, params).href);
}

async function callback(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const query = req.query as Record<string, unknown>;
  const flow = await takeSso(req, BACKEND, query.state);
  if (!flow) return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'state_invalid' });
  if (!(await enabled(req))) return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_disabled' });
  const s = await loadOidcSettings(req.server.deps.settings);
  const redirectUri = await siteUrl(req, OIDC_CALLBACK_PATH);
  let claims: Record<string, unknown>;
  let idToken: string | undefined;
  try {
    const config = await oidcConfiguration(req.server.deps.settings);
    const current = new URL(redirectUri);
    for (const [k, v] of Object.entries(query)) if (typeof v === 'string') current.searchParams.set(k, v);
    const tokens = await client.authorizationCodeGrant(
      config,
      current,
      {
        expectedState: String(query.state),
        ...(flow.verifier ? { pkceCodeVerifier: flow.verifier } : {}),
        ...(flow.nonce ? { expectedNonce: flow.nonce } : {}),
        idTokenExpected: true,
      },
      { redirect_uri: redirectUri },
    );
    const idClaims = tokens.claims()!;
    if (typeof idClaims.iat !== 'number' || idClaims.iat + s.maxAgeSeconds < Date.now() / 1000)
      return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'token_expired' });
    idToken = tokens.id_token;
    claims = { ...idClaims };
    if (config.serverMetadata().userinfo_endpoint)
      claims = { ...claims, ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)) };
  } catch (e) {
    req.log.warn({ err: e }, 'OpenID sign-in refused');
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_failed' });
  }
  const suffix = await req.server.deps.settings.get('EMAIL_SUFFIX');
  const profile = mapProfile(claims, s.attrMap, suffix);
  if (!profile) return refuseSso(req, reply, BACKEND, 'user_invalid', { reason: 'user_invalid' });
  return finishSso(req, reply, BACKEND, profile, flow.next, idToken ? { id_token: idToken } : undefined);
}

/**
 * The provider's sign-out for a session signed in here by OpenID Connect (AUTH_OPENID_SHARE_SESSION,
 * the provider's end_session_endpoint): its URL, returning to `back`; undefined otherwise.
 */
export async function oidcLogoutUrl(
  req: FastifyRequest,
  sso: Record<string, string>,
  back: string,
): Promise<string | undefined> {
  const { settings } = req.server.deps;
  if (!(await settings.valueOf('AUTH_OPENID')) || !(await settings.valueOf('AUTH_OPENID_SHARE_SESSION')))
    return undefined;
  try {
    const config = await oidcConfiguration(settings);
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(config, {
      ...(sso.id_token ? { id_token_hint: sso.id_token } : {}),
      post_logout_redirect_uri: back,
    }).href;
  } catch (e) {
    req.log.warn({ err: e }, 'OpenID sign-out: the provider could not be read');
    return undefined;
  }
}

export function registerOidcRoutes(app: FastifyInstance): void {
  app.get(OIDC_LOGIN_PATH, { config: { public: true } }, login);
  app.get(OIDC_CALLBACK_PATH, { config: { public: true } }, callback);
}
