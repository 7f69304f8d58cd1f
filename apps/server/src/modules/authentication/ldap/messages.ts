import { catalogue } from '../../../platform/i18n/catalogue.ts';
import type ldapMessages from '../../../platform/i18n/locales/en/ldap.json';

/** Messages of LDAP sign-in, its settings' tools and the sync. */
export const LM = catalogue<typeof ldapMessages>('ldap');
