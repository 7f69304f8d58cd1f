import { translator } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type authenticationMessages from '../../platform/i18n/locales/en/authentication.json';

/** Messages of sign-in steps, MFA, re-verification and transported secrets, in the three languages. */
const MESSAGES = catalogue<typeof authenticationMessages>('authentication');

export type AuthMessageKey = keyof typeof MESSAGES;

export const ta = translator(MESSAGES);
