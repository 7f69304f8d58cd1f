import { text, type I18nText, type Language } from '@gatehouse/contract';
import { M as ACL } from '../acls/aclMessages.ts';

/** Display texts of the login log's reason and backend codes (JumpServer's LoginFailed reasons). */
const REASONS: Record<string, I18nText> = {
  password_failed: text(
    'Username/password check failed',
    '用户名/密码 校验失败',
    'ユーザー名/パスワードの確認に失敗しました',
  ),
  block_login: text('Login blocked', '登录被锁定', 'ログインがブロックされました'),
  user_inactive: text('Disabled or expired', '禁用或失效', '無効または期限切れ'),
  user_expired: text('Disabled or expired', '禁用或失效', '無効または期限切れ'),
  mfa_failed: text('MFA failed', 'MFA 认证失败', 'MFA 認証に失敗しました'),
  block_mfa: text('MFA blocked', 'MFA 被锁定', 'MFA がブロックされました'),
  mfa_code_format: text('MFA failed', 'MFA 认证失败', 'MFA 認証に失敗しました'),
  acl_not_allow: ACL.reason_acl_not_allow,
  login_acl_review: ACL.reason_login_acl_review,
  mfa_type_unsupported: text('MFA type not supported', '不支持的 MFA 类型', 'サポートされていない MFA タイプ'),
};

export const BACKEND_LABELS: Record<string, I18nText> = {
  password: text('Password', '密码', 'パスワード'),
};

export function reasonLabel(code: string, lang: Language): string {
  if (!code) return '';
  return REASONS[code]?.[lang] ?? code;
}
