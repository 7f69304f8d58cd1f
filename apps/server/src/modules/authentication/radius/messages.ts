import { catalogue } from '../../../platform/i18n/catalogue.ts';
import type identityMessages from '../../../platform/i18n/locales/en/identity.json';

/** Messages of the sign-in providers other than LDAP (RADIUS, OpenID Connect, OAuth2, SAML2, CAS). */
export const IM = catalogue<typeof identityMessages>('identity');
