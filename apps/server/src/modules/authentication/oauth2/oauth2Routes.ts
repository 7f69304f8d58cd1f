import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { beginSso, takeSso } from '../sso/ssoFlow.ts';
import { finishSso, mapProfile, refuseSso } from '../sso/ssoFinish.ts';
import { siteUrl, SSO_TIMEOUT_SECONDS } from '../sso/ssoSite.ts';
import { readAnswer } from '../sso/providerAnswer.ts';

/**
 * Sign-in through a generic OAuth2 provider (AUTH_OAUTH2_*), JumpServer's paths:
 * `GET /core/auth/oauth2/login/?next=` sends the browser to the authorization endpoint with a
 * state bound to it (sso/ssoFlow.ts); `GET /core/auth/oauth2/callback/` exchanges the code at the
 * token endpoint (AUTH_OAUTH2_ACCESS_TOKEN_METHOD: POST by default, the client id and secret in the
 * form body; GET, JumpServer's default kept for providers that need it, puts them in the URL), reads the userinfo endpoint with the access token, maps it by
 * AUTH_OAUTH2_USER_ATTR_MAP and ends like every provider sign-in (sso/ssoFinish.ts). Each request
 * to the provider ends after SSO_TIMEOUT_SECONDS; answers above 1 MiB are refused.
 */
export const OAUTH2_LOGIN_PATH = '/core/auth/oauth2/login/';
export const OAUTH2_CALLBACK_PATH = '/core/auth/oauth2/callback/';
const BACKEND = 'oauth2';

const str = async (req: FastifyRequest, name: string) =>
  String((await req.server.deps.settings.valueOf(name)) ?? '').trim();

async function login(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const endpoint = await str(req, 'AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT');
  if (!(await req.server.deps.settings.valueOf('AUTH_OAUTH2')) || !endpoint)
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_disabled' });
  const state = await beginSso(req, reply, BACKEND);
  const url = new URL(endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', await str(req, 'AUTH_OAUTH2_CLIENT_ID'));
  url.searchParams.set('redirect_uri', await siteUrl(req, OAUTH2_CALLBACK_PATH));
  url.searchParams.set('state', state);
  const scope = await str(req, 'AUTH_OAUTH2_SCOPE');
  if (scope) url.searchParams.set('scope', scope);
  return reply.redirect(url.href);
}

async function exchange(req: FastifyRequest, code: string): Promise<string> {
  const params = new URLSearchParams({
    client_id: await str(req, 'AUTH_OAUTH2_CLIENT_ID'),
    client_secret: await req.server.deps.settings.secret('AUTH_OAUTH2_CLIENT_SECRET'),
    grant_type: 'authorization_code',
    code,
    redirect_uri: await siteUrl(req, OAUTH2_CALLBACK_PATH),
  });
  const endpoint = new URL(await str(req, 'AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT'));
  const post = (await str(req, 'AUTH_OAUTH2_ACCESS_TOKEN_METHOD')) === 'POST';
  if (!post) for (const [k, v] of params) endpoint.searchParams.set(k, v);
  const res = await fetch(endpoint, {
    method: post ? 'POST' : 'GET',
    headers: { accept: 'application/json', ...(post ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(post ? { body: params.toString() } : {}),
    redirect: 'error',
    signal: AbortSignal.timeout(SSO_TIMEOUT_SECONDS * 1000),
  });
  const answer = await readAnswer(res);
  if (typeof answer.access_token !== 'string' || !answer.access_token) throw new Error('no access_token in the answer');
  return answer.access_token;
}

async function userinfo(req: FastifyRequest, accessToken: string): Promise<Record<string, unknown>> {
  const res = await fetch(await str(req, 'AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT'), {
    headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
    redirect: 'error',
    signal: AbortSignal.timeout(SSO_TIMEOUT_SECONDS * 1000),
  });
  return readAnswer(res);
}

async function callback(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const query = req.query as Record<string, unknown>;
  const flow = await takeSso(req, BACKEND, query.state);
  if (!flow) return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'state_invalid' });
  if (!(await req.server.deps.settings.valueOf('AUTH_OAUTH2')))
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_disabled' });
  if (typeof query.code !== 'string' || !query.code)
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_failed' });
  let info: Record<string, unknown>;
  try {
    info = await userinfo(req, await exchange(req, query.code));
  } catch (e) {
    req.log.warn({ err: e }, 'OAuth2 sign-in refused');
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_failed' });
  }
  const map = await req.server.deps.settings.valueOf('AUTH_OAUTH2_USER_ATTR_MAP');
  const attrMap = typeof map === 'object' && map !== null ? (map as Record<string, string>) : { username: 'username' };
  const profile = mapProfile(info, attrMap, await req.server.deps.settings.get('EMAIL_SUFFIX'));
  if (!profile) return refuseSso(req, reply, BACKEND, 'user_invalid', { reason: 'user_invalid' });
  return finishSso(req, reply, BACKEND, profile, flow.next);
}

/** The provider's end-session endpoint under AUTH_OAUTH2_LOGOUT_COMPLETELY, else undefined. */
export async function oauth2LogoutUrl(req: FastifyRequest, back: string): Promise<string | undefined> {
  if (!(await req.server.deps.settings.valueOf('AUTH_OAUTH2_LOGOUT_COMPLETELY'))) return undefined;
  const endpoint = await str(req, 'AUTH_OAUTH2_PROVIDER_END_SESSION_ENDPOINT');
  if (!endpoint) return undefined;
  const url = new URL(endpoint);
  url.searchParams.set('client_id', await str(req, 'AUTH_OAUTH2_CLIENT_ID'));
  url.searchParams.set('post_logout_redirect_uri', back);
  return url.href;
}

export function registerOauth2Routes(app: FastifyInstance): void {
  app.get(OAUTH2_LOGIN_PATH, { config: { public: true } }, login);
  app.get(OAUTH2_CALLBACK_PATH, { config: { public: true } }, callback);
}
