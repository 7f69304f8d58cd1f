import { catalogue, translate } from '../../platform/i18n/catalogue.ts';
import type accountMessages from '../../platform/i18n/locales/en/accounts.json';

/** Messages of the accounts module, from the `accounts` catalogues (platform/i18n/locales). */
export const ACCOUNT_MESSAGES = catalogue<typeof accountMessages>('accounts');

export const acm = translate(ACCOUNT_MESSAGES);
