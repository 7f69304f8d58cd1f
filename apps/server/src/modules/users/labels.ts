import { type I18nText, type Language, type LabeledValue } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
const M = catalogue<typeof usersMessages>('users');

/** Choice labels of the user object. */
export const MFA_LEVEL_LABELS: Record<number, I18nText> = {
  0: M.disable,
  1: M.enable,
  2: M.force_enable,
};

export const SOURCE_LABELS: Record<string, I18nText> = {
  local: M.local,
  ldap: M.ldap,
  openid: M.openid,
  radius: M.radius,
  cas: M.cas,
  saml2: M.saml2,
  oauth2: M.oauth2,
  wecom: M.wecom,
  dingtalk: M.dingtalk,
  feishu: M.feishu,
  custom: M.custom,
};

export const ALL_JOINED_ORGS = M.all_organizations;

export function labeled<T extends string | number>(
  value: T,
  labels: Record<string, I18nText>,
  lang: Language,
): LabeledValue<T> {
  return { value, label: labels[String(value)]?.[lang] ?? String(value) };
}
