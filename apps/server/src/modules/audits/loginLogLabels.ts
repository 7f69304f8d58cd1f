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
};

export const BACKEND_LABELS: Record<string, I18nText> = {
  password: M.password,
  Passkey: AL.backend_passkey,
  publickey: AL.backend_pubkey,
};

export function reasonLabel(code: string, lang: Language): string {
  if (!code) return '';
  return REASONS[code]?.[lang] ?? code;
}
