import type { FastifyRequest } from 'fastify';
import type { IdentityProvider, ProviderOutcome } from './index.ts';
import { radiusCheck, RadiusUnavailable } from '../radius/client.ts';
import { loadRadiusConfig } from '../radius/config.ts';
import { IM } from '../radius/messages.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';

/**
 * RADIUS sign-in (AUTH_RADIUS): the username and password go to RADIUS_SERVER in one PAP
 * Access-Request. RADIUS tells nothing about the user, so a new user is named by the username
 * and gets `<username>@EMAIL_SUFFIX` (or the username itself when it is an address), as the
 * original's construct_user_email.
 */
export const radiusProvider: IdentityProvider = {
  source: 'radius',
  async enabled(req) {
    return Boolean(await req.server.deps.settings.valueOf('AUTH_RADIUS'));
  },
  async authenticate(req: FastifyRequest, username: string, password: string): Promise<ProviderOutcome> {
    const config = await loadRadiusConfig(req.server.deps.settings);
    try {
      if (!(await radiusCheck(config, username, password))) return { ok: false, error: 'password_failed' };
    } catch (e) {
      if (!(e instanceof RadiusUnavailable)) throw e;
      req.log.warn({ err: e, username }, 'RADIUS sign-in: server unavailable');
      return { ok: false, error: 'unavailable', msg: tr(req.lang, IM.radius_unavailable, { error: e.message }) };
    }
    const suffix = await req.server.deps.settings.get('EMAIL_SUFFIX');
    const email = username.includes('@') ? username : `${username}@${suffix}`;
    return { ok: true, profile: { username, name: username, email } };
  },
};
