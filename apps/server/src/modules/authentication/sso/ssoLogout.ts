import type { FastifyRequest } from 'fastify';
import { LOGIN_PATH } from '@gatehouse/contract';
import { oidcLogoutUrl } from '../oidc/oidcRoutes.ts';
import { oauth2LogoutUrl } from '../oauth2/oauth2Routes.ts';
import { casLogoutUrl } from '../cas/casRoutes.ts';
import { saml2LogoutUrl } from '../saml2/saml2Logout.ts';
import { siteUrl } from './ssoSite.ts';

/**
 * Where signing out sends a session signed in through a provider (`session.data.sso`, written by
 * sso/ssoFinish.ts): the provider's own sign-out, back to our login page afterwards, when the
 * provider's settings ask for it; undefined: our login page only.
 */
export async function providerLogoutUrl(
  req: FastifyRequest,
  sso: Record<string, string> | undefined,
): Promise<string | undefined> {
  if (!sso) return undefined;
  const back = await siteUrl(req, LOGIN_PATH);
  if (sso.backend === 'openid') return oidcLogoutUrl(req, sso, back);
  if (sso.backend === 'oauth2') return oauth2LogoutUrl(req, back);
  if (sso.backend === 'cas') return casLogoutUrl(req, back);
  if (sso.backend === 'saml2') return saml2LogoutUrl(req, sso);
  return undefined;
}
