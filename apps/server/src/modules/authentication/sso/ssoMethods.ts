import type { FastifyRequest } from 'fastify';
import type { SsoMethod } from '@gatehouse/contract';
import { OIDC_LOGIN_PATH } from '../oidc/oidcRoutes.ts';
import { OAUTH2_LOGIN_PATH } from '../oauth2/oauth2Routes.ts';
import { SAML2_LOGIN_PATH } from '../saml2/saml2Routes.ts';
import { CAS_LOGIN_PATH } from '../cas/casRoutes.ts';
import { imMethods } from '../im/imRoutes.ts';

/** A logo the login page may show: an https URL or a path of this site, nothing else. */
function safeLogo(value: unknown): string {
  if (typeof value !== 'string' || !value) return '';
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
  try {
    return new URL(value).protocol === 'https:' ? value : '';
  } catch {
    return '';
  }
}

/** The enabled sign-in methods through a provider's pages, for the login page's buttons (public settings). */
export async function ssoMethods(req: FastifyRequest): Promise<SsoMethod[]> {
  const s = req.server.deps.settings;
  const out: SsoMethod[] = [];
  if (await s.valueOf('AUTH_OPENID')) out.push({ name: 'openid', label: 'OpenID', url: OIDC_LOGIN_PATH, logo: '' });
  if (await s.valueOf('AUTH_OAUTH2'))
    out.push({
      name: 'oauth2',
      label: String((await s.valueOf('AUTH_OAUTH2_PROVIDER')) || 'OAuth2'),
      url: OAUTH2_LOGIN_PATH,
      logo: safeLogo(await s.valueOf('AUTH_OAUTH2_LOGO_PATH')),
    });
  if (await s.valueOf('AUTH_SAML2')) out.push({ name: 'saml2', label: 'SAML2', url: SAML2_LOGIN_PATH, logo: '' });
  if (await s.valueOf('AUTH_CAS')) out.push({ name: 'cas', label: 'CAS', url: CAS_LOGIN_PATH, logo: '' });
  out.push(...(await imMethods(req)));
  return out;
}
