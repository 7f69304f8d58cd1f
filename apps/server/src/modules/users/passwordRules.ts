import { text, type Language } from '@gatehouse/contract';
import type { SettingsStore } from '../settings/store.ts';

/** Password rules of the security settings. */
export const SPECIAL_CHARS = '`~!@#$%^&*()-=_+[]{}|;:\'",.<>/?';

const MSG = {
  length: text(
    'Password must be at least {n} characters long',
    '密码长度至少为 {n} 位',
    'パスワードは {n} 文字以上である必要があります',
  ),
  upper: text('Password must contain an upper case letter', '密码必须包含大写字母', 'パスワードには大文字が必要です'),
  lower: text('Password must contain a lower case letter', '密码必须包含小写字母', 'パスワードには小文字が必要です'),
  number: text('Password must contain a number', '密码必须包含数字', 'パスワードには数字が必要です'),
  special: text(
    'Password must contain a special character',
    '密码必须包含特殊字符',
    'パスワードには特殊文字が必要です',
  ),
};

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
  if (password.length < min) return MSG.length[lang].replace('{n}', String(min));
  if ((await settings.get('SECURITY_PASSWORD_UPPER_CASE')) && !/[A-Z]/.test(password)) return MSG.upper[lang];
  if ((await settings.get('SECURITY_PASSWORD_LOWER_CASE')) && !/[a-z]/.test(password)) return MSG.lower[lang];
  if ((await settings.get('SECURITY_PASSWORD_NUMBER')) && !/\d/.test(password)) return MSG.number[lang];
  if ((await settings.get('SECURITY_PASSWORD_SPECIAL_CHAR')) && ![...password].some((c) => SPECIAL_CHARS.includes(c)))
    return MSG.special[lang];
  return undefined;
}
