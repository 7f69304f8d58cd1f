import type { FastifyRequest } from 'fastify';
import type { IdentityProvider, ProviderOutcome } from './index.ts';
import { loadLdapConfig } from '../ldap/config.ts';
import { bindAs, findEntry, LdapBindFailed, LdapUnavailable } from '../ldap/directory.ts';
import { LM } from '../ldap/messages.ts';
import { tr } from '../../../platform/i18n/catalogue.ts';

/**
 * LDAP sign-in (AUTH_LDAP): the service account searches the username with
 * AUTH_LDAP_SEARCH_FILTER under AUTH_LDAP_SEARCH_OU, then the found DN binds with the password.
 */
export const ldapProvider: IdentityProvider = {
  source: 'ldap',
  async enabled(req) {
    return Boolean(await req.server.deps.settings.valueOf('AUTH_LDAP'));
  },
  async authenticate(req: FastifyRequest, username: string, password: string): Promise<ProviderOutcome> {
    const config = await loadLdapConfig(req.server.deps.settings);
    try {
      const entry = await findEntry(config, username);
      if (!entry || !(await bindAs(config, entry.dn, password))) return { ok: false, error: 'password_failed' };
      return { ok: true, profile: { ...entry, username: entry.username || username } };
    } catch (e) {
      const error = (e as Error).message || String(e);
      req.log.warn({ err: e, username }, 'LDAP sign-in: directory unavailable');
      const msg =
        e instanceof LdapBindFailed || e instanceof LdapUnavailable
          ? tr(req.lang, LM.unavailable, { error })
          : tr(req.lang, LM.search_failed, { error });
      return { ok: false, error: 'unavailable', msg };
    }
  },
};
