import { type Language } from '@gatehouse/contract';
import type { SettingsStore } from '../settings/store.ts';
import { catalogue, tr } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';

/** Password rules of the security settings. */
export const SPECIAL_CHARS = '`~!@#$%^&*()-=_+[]{}|;:\'",.<>/?';

const MSG = catalogue<typeof usersMessages>('users');

/** The first rule the password breaks, as a message in the user's language; undefined when it passes. */
export async function checkPasswordRules(
  settings: SettingsStore,
  password: string,
  lang: Language,
  isOrgAdmin = false,
): Promise<string | undefined> {
  const min = isOrgAdmin
    ? await settings.get('SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH')
    : await settings.get('SECURITY_PASSWORD_MIN_LENGTH');
  if (password.length < min) return tr(lang, MSG.length, { n: String(min) });
  if ((await settings.get('SECURITY_PASSWORD_UPPER_CASE')) && !/[A-Z]/.test(password)) return MSG.upper[lang];
  if ((await settings.get('SECURITY_PASSWORD_LOWER_CASE')) && !/[a-z]/.test(password)) return MSG.lower[lang];
  if ((await settings.get('SECURITY_PASSWORD_NUMBER')) && !/\d/.test(password)) return MSG.number[lang];
  if ((await settings.get('SECURITY_PASSWORD_SPECIAL_CHAR')) && ![...password].some((c) => SPECIAL_CHARS.includes(c)))
    return MSG.special[lang];
  return undefined;
}
