import type { FastifyRequest } from 'fastify';
import { text, type I18nText } from '@gatehouse/contract';
import { escapeHtml } from './sanitize.ts';
import { sendSiteMessage } from './siteMessages.ts';

/** Messages the system sends to a user about their own account, in the language of the request. */
const SYSTEM_MESSAGES = {
  password_changed: {
    subject: text('Your password was changed', '您的密码已修改', 'パスワードが変更されました'),
    message: text(
      '<p>The password of your account <b>{username}</b> was changed at {time} from {ip}.</p><p>If this was not you, contact the administrator at once.</p>',
      '<p>您的账号 <b>{username}</b> 的密码已于 {time} 从 {ip} 修改。</p><p>如果不是您本人操作，请立即联系管理员。</p>',
      '<p>アカウント <b>{username}</b> のパスワードが {time} に {ip} から変更されました。</p><p>心当たりがない場合は、すぐに管理者に連絡してください。</p>',
    ),
  },
  mfa_bound: {
    subject: text('MFA enabled on your account', '您的账号已启用 MFA', 'アカウントで MFA が有効になりました'),
    message: text(
      '<p>An OTP authenticator was bound to your account <b>{username}</b> at {time} from {ip}.</p><p>If this was not you, contact the administrator at once.</p>',
      '<p>您的账号 <b>{username}</b> 已于 {time} 从 {ip} 绑定 OTP 验证器。</p><p>如果不是您本人操作，请立即联系管理员。</p>',
      '<p>アカウント <b>{username}</b> に {time} に {ip} から OTP 認証アプリが紐付けられました。</p><p>心当たりがない場合は、すぐに管理者に連絡してください。</p>',
    ),
  },
  mfa_removed: {
    subject: text('MFA removed from your account', '您的账号已解除 MFA', 'アカウントの MFA が解除されました'),
    message: text(
      '<p>The OTP authenticator of your account <b>{username}</b> was removed at {time} from {ip}.</p><p>If this was not you, contact the administrator at once.</p>',
      '<p>您的账号 <b>{username}</b> 的 OTP 验证器已于 {time} 从 {ip} 解绑。</p><p>如果不是您本人操作，请立即联系管理员。</p>',
      '<p>アカウント <b>{username}</b> の OTP 認証アプリが {time} に {ip} から解除されました。</p><p>心当たりがない場合は、すぐに管理者に連絡してください。</p>',
    ),
  },
  account_locked: {
    subject: text('Your account was locked', '您的账号已被锁定', 'アカウントがロックされました'),
    message: text(
      '<p>Your account <b>{username}</b> was locked for {minutes} minutes at {time} after too many failed {what} attempts from {ip}.</p><p>If this was not you, contact the administrator.</p>',
      '<p>由于来自 {ip} 的{what}失败次数过多，您的账号 <b>{username}</b> 已于 {time} 被锁定 {minutes} 分钟。</p><p>如果不是您本人操作，请联系管理员。</p>',
      '<p>{ip} からの{what}の失敗が多すぎたため、アカウント <b>{username}</b> は {time} から {minutes} 分間ロックされました。</p><p>心当たりがない場合は、管理者に連絡してください。</p>',
    ),
  },
} satisfies Record<string, { subject: I18nText; message: I18nText }>;

const WHAT = {
  login: text('sign-in', '登录', 'サインイン'),
  mfa: text('MFA', ' MFA 验证', ' MFA 認証'),
};

export type SystemMessageKind = keyof typeof SYSTEM_MESSAGES;

/**
 * Sends a system message to one user. Never fails the action that caused it: a failure is
 * logged (without the message's parameters) and swallowed.
 */
export async function notifyUser(
  req: FastifyRequest,
  user: { id: string; username: string },
  kind: SystemMessageKind,
  params: Record<string, string | number> & { what?: keyof typeof WHAT } = {},
): Promise<void> {
  const lang = req.lang;
  const values: Record<string, string> = {
    username: user.username,
    time: new Date().toISOString().replace('T', ' ').slice(0, 19) + ' UTC',
    ip: req.ip,
  };
  for (const [k, v] of Object.entries(params))
    values[k] = k === 'what' ? WHAT[v as keyof typeof WHAT][lang] : String(v);
  const fill = (tpl: string, escape: boolean) =>
    tpl.replace(/\{(\w+)\}/g, (m, n: string) => (n in values ? (escape ? escapeHtml(values[n]!) : values[n]!) : m));
  const tpl = SYSTEM_MESSAGES[kind];
  try {
    await sendSiteMessage(req.server.deps.database.db, req.server.deps.bus, {
      subject: fill(tpl.subject[lang], false),
      message: fill(tpl.message[lang], true),
      userIds: [user.id],
    });
  } catch (e) {
    req.log.error({ kind, err: (e as Error).message }, 'could not send a system site message');
  }
}
