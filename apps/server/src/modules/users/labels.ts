import { text, type I18nText, type Language, type LabeledValue } from '@gatehouse/contract';

/** Choice labels of the user object. */
export const MFA_LEVEL_LABELS: Record<number, I18nText> = {
  0: text('Disable', '禁用', '無効'),
  1: text('Enable', '启用', '有効'),
  2: text('Force enable', '强制启用', '強制有効'),
};

export const SOURCE_LABELS: Record<string, I18nText> = {
  local: text('Local', '数据库', 'ローカル'),
  ldap: text('LDAP/AD', 'LDAP/AD', 'LDAP/AD'),
  openid: text('OpenID', 'OpenID', 'OpenID'),
  radius: text('Radius', 'Radius', 'Radius'),
  cas: text('CAS', 'CAS', 'CAS'),
  saml2: text('SAML2', 'SAML2', 'SAML2'),
  oauth2: text('OAuth2', 'OAuth2', 'OAuth2'),
  wecom: text('WeCom', '企业微信', 'WeCom'),
  dingtalk: text('DingTalk', '钉钉', 'DingTalk'),
  feishu: text('FeiShu', '飞书', 'FeiShu'),
  custom: text('Custom', '自定义', 'カスタム'),
};

export const ALL_JOINED_ORGS = text('All organizations', '所有组织', 'すべての組織');

export function labeled<T extends string | number>(
  value: T,
  labels: Record<string, I18nText>,
  lang: Language,
): LabeledValue<T> {
  return { value, label: labels[String(value)]?.[lang] ?? String(value) };
}
