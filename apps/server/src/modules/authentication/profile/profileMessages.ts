import { translate, catalogue } from '../../../platform/i18n/catalogue.ts';
import type profileMessages from '../../../platform/i18n/locales/en/profile.json';

/** Messages of the profile's credentials, preferences and connection tokens, in the three languages. */
export const PROFILE_MESSAGES = catalogue<typeof profileMessages>('profile');

export const tp = translate(PROFILE_MESSAGES);
