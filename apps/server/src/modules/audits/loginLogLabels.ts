import { type I18nText, type Language } from '@gatehouse/contract';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type auditsMessages from '../../platform/i18n/locales/en/audits.json';
import { M as ACL } from '../acls/aclMessages.ts';
const M = catalogue<typeof auditsMessages>('audits');
import { AL } from './auditLogsText.ts';

/** Display texts of the login log's reason and backend codes (JumpServer's LoginFailed reasons). */
const REASONS: Record<string, I18nText> = {
  password_failed: M.password_failed,
  block_login: M.block_login,
  user_inactive: M.user_inactive,
  user_expired: M.user_inactive,
  mfa_failed: M.mfa_failed,
  block_mfa: M.block_mfa,
  mfa_code_format: M.mfa_failed,
  acl_not_allow: ACL.reason_acl_not_allow,
  login_acl_review: ACL.reason_login_acl_review,
  mfa_type_unsupported: M.mfa_type_unsupported,
  ldap_unavailable: M.reason_ldap_unavailable,
  radius_unavailable: M.reason_radius_unavailable,
  provider_failed: M.reason_provider_failed,
  metadata_invalid: M.reason_metadata_invalid,
  user_not_exist: M.reason_user_not_exist,
  not_bound: M.reason_not_bound,
};

export const BACKEND_LABELS: Record<string, I18nText> = {
  password: M.password,
  Passkey: AL.backend_passkey,
  publickey: AL.backend_pubkey,
  ldap: M.backend_ldap,
  radius: M.backend_radius,
  openid: M.backend_openid,
  oauth2: M.backend_oauth2,
  saml2: M.backend_saml2,
  cas: M.backend_cas,
  wecom: M.backend_wecom,
  dingtalk: M.backend_dingtalk,
  feishu: M.backend_feishu,
};

export function reasonLabel(code: string, lang: Language): string {
  if (!code) return '';
  return REASONS[code]?.[lang] ?? code;
}
