import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { beginSso, takeSso } from '../sso/ssoFlow.ts';
import { finishSso, mapProfile, refuseSso } from '../sso/ssoFinish.ts';
import { siteUrl, SSO_TIMEOUT_SECONDS } from '../sso/ssoSite.ts';

/**
 * CAS sign-in (protocol 2 and 3), JumpServer's path `/core/auth/cas/login/`: without a ticket it
 * sends the browser to `<CAS_SERVER_URL>/login?service=<this route>?state=<flow>`; the CAS server
 * sends it back with `ticket`, which is validated once at `serviceValidate` (v2) or
 * `p3/serviceValidate` (v3, with attributes) for exactly that service URL. The service's base is
 * CAS_ROOT_PROXIED_AS when the site is proxied, else BASE_SITE_URL or SITE_URL.
 */
export const CAS_LOGIN_PATH = '/core/auth/cas/login/';
const BACKEND = 'cas';
const MAX_ANSWER_BYTES = 1 << 20;

const str = async (req: FastifyRequest, name: string) =>
  String((await req.server.deps.settings.valueOf(name)) ?? '').trim();

async function serviceUrl(req: FastifyRequest, state: string): Promise<string> {
  const proxied = await str(req, 'CAS_ROOT_PROXIED_AS');
  const url = new URL(
    proxied
      ? new URL(CAS_LOGIN_PATH, proxied.endsWith('/') ? proxied : `${proxied}/`).href
      : await siteUrl(req, CAS_LOGIN_PATH),
  );
  url.searchParams.set('state', state);
  return url.href;
}

const server = async (req: FastifyRequest, path: string) => {
  const base = await str(req, 'CAS_SERVER_URL');
  return new URL(path, base.endsWith('/') ? base : `${base}/`);
};

/** The XML text of `<cas:name>` (any prefix), entities decoded. */
function textOf(xml: string, name: string): string | undefined {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}>([^<]*)</(?:[\\w.-]+:)?${name}>`).exec(xml)?.[1];
  return m
    ?.replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

/** The user and attributes of a successful validation, or undefined (authenticationFailure). */
export function parseValidation(xml: string): Record<string, string> | undefined {
  const success = /<(?:[\w.-]+:)?authenticationSuccess>([\s\S]*)<\/(?:[\w.-]+:)?authenticationSuccess>/.exec(xml)?.[1];
  if (!success) return undefined;
  const user = textOf(success, 'user');
  if (!user) return undefined;
  const out: Record<string, string> = { cas_user: user };
  const attrs = /<(?:[\w.-]+:)?attributes>([\s\S]*?)<\/(?:[\w.-]+:)?attributes>/.exec(success)?.[1] ?? '';
  for (const [, name, value] of attrs.matchAll(/<(?:[\w.-]+:)?([\w.-]+)>([^<]*)<\//g))
    if (name && !(name in out)) out[name] = (value ?? '').trim();
  return out;
}

async function validate(
  req: FastifyRequest,
  service: string,
  ticket: string,
): Promise<Record<string, string> | undefined> {
  const v3 = Number(await req.server.deps.settings.valueOf('CAS_VERSION')) === 3;
  const url = await server(req, v3 ? 'p3/serviceValidate' : 'serviceValidate');
  url.searchParams.set('service', service);
  url.searchParams.set('ticket', ticket);
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(SSO_TIMEOUT_SECONDS * 1000) });
  if (!res.ok) throw new Error(`CAS answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) throw new Error('answer too large');
  const xml = await res.text();
  if (xml.length > MAX_ANSWER_BYTES) throw new Error('answer too large');
  return parseValidation(xml);
}

async function login(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const query = req.query as Record<string, unknown>;
  if (!(await req.server.deps.settings.valueOf('AUTH_CAS')) || !(await str(req, 'CAS_SERVER_URL')))
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_disabled' });
  if (typeof query.ticket !== 'string') {
    const state = await beginSso(req, reply, BACKEND);
    const target = await server(req, 'login');
    target.searchParams.set('service', await serviceUrl(req, state));
    return reply.redirect(target.href);
  }
  const flow = await takeSso(req, BACKEND, query.state);
  if (!flow) return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'state_invalid' });
  let fields: Record<string, string> | undefined;
  try {
    fields = await validate(req, await serviceUrl(req, String(query.state)), query.ticket);
  } catch (e) {
    req.log.warn({ err: e }, 'CAS sign-in: validation failed');
    return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_failed' });
  }
  if (!fields) return refuseSso(req, reply, BACKEND, 'sso_failed', { reason: 'provider_failed' });
  const { settings } = req.server.deps;
  const rename = ((await settings.valueOf('CAS_RENAME_ATTRIBUTES')) ?? {}) as Record<string, string>;
  // CAS attribute → our field; the CAS user stays the username unless renamed otherwise.
  const claims: Record<string, unknown> = { username: fields.cas_user };
  for (const [from, to] of Object.entries(rename)) if (fields[from]) claims[to] = fields[from];
  const profile = mapProfile(
    claims,
    { username: 'username', name: 'name', email: 'email' },
    await settings.get('EMAIL_SUFFIX'),
  );
  if (!profile) return refuseSso(req, reply, BACKEND, 'user_invalid', { reason: 'user_invalid' });
  return finishSso(req, reply, BACKEND, profile, flow.next);
}

/** The CAS server's logout under CAS_LOGOUT_COMPLETELY, back to `back`; else undefined. */
export async function casLogoutUrl(req: FastifyRequest, back: string): Promise<string | undefined> {
  if (!(await req.server.deps.settings.valueOf('CAS_LOGOUT_COMPLETELY')) || !(await str(req, 'CAS_SERVER_URL')))
    return undefined;
  const url = await server(req, 'logout');
  url.searchParams.set('service', back);
  return url.href;
}

export function registerCasRoutes(app: FastifyInstance): void {
  app.get(CAS_LOGIN_PATH, { config: { public: true } }, login);
}
