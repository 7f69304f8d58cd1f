import { text, translator, type I18nText } from '@gatehouse/contract';

/** Messages of sign-in steps, MFA, re-verification and transported secrets, in the three languages. */
const MESSAGES = {
  mfa_required: text('MFA required', '需要 MFA 认证', 'MFA 認証が必要です'),
  mfa_unset: text(
    'MFA unset, please set first',
    'MFA 未设置，请先设置',
    'MFA が設定されていません。先に設定してください',
  ),
  mfa_failed: text(
    '{error}, You can also try {times} times (The account will be temporarily locked for {minutes} minutes)',
    '{error}，您还可以尝试 {times} 次（账号将被临时锁定 {minutes} 分钟）',
    '{error}、あと {times} 回試行できます（アカウントは {minutes} 分間一時的にロックされます）',
  ),
  otp_invalid: text(
    'OTP code invalid, or server time error',
    'OTP 验证码无效，或服务器时间错误',
    'OTP コードが無効か、サーバー時刻に誤差があります',
  ),
  sms_invalid: text('SMS verify code invalid', '短信验证码无效', 'SMS 認証コードが無効です'),
  block_mfa: text(
    'The account has been locked (please contact admin to unlock it or try again after {minutes} minutes)',
    '账号已被锁定 (请联系管理员解锁或 {minutes} 分钟后重试)',
    'アカウントがロックされています（管理者に連絡してロックを解除するか、{minutes} 分後に再試行してください）',
  ),
  mfa_code_format: text('MFA Error, please check', 'MFA 错误，请检查', 'MFA エラー、確認してください'),
  mfa_type_unsupported: text(
    'Current user not support mfa type: {type}',
    '当前用户不支持 MFA 类型：{type}',
    '現在のユーザーは MFA タイプ {type} をサポートしていません',
  ),
  session_empty: text(
    'The sign-in step has expired: sign in again.',
    '登录步骤已过期：请重新登录。',
    'サインインの手順が期限切れです。もう一度サインインしてください。',
  ),
  sms_disabled: text(
    'SMS is not enabled: ask the administrator to configure it.',
    '短信未启用：请联系管理员配置。',
    'SMS が有効になっていません。管理者に設定を依頼してください。',
  ),
  sms_no_phone: text(
    'Your account has no phone number: ask the administrator to add one.',
    '您的账号没有手机号：请联系管理员添加。',
    'アカウントに電話番号がありません。管理者に追加を依頼してください。',
  ),
  sms_wait: text(
    'A code was sent just now: wait {seconds} seconds before asking again.',
    '刚刚已发送验证码：请 {seconds} 秒后再试。',
    'コードを送信したばかりです。{seconds} 秒後にもう一度お試しください。',
  ),
  sms_failed: text(
    'The SMS gateway did not accept the message ({reason}): check the SMS settings.',
    '短信网关未接受该消息（{reason}）：请检查短信设置。',
    'SMS ゲートウェイがメッセージを受け付けませんでした（{reason}）。SMS 設定を確認してください。',
  ),
  sms_sent: text('The verification code has been sent.', '验证码已发送。', '認証コードを送信しました。'),
  sms_text: text('Your verification code is {code}', '您的验证码是 {code}', '認証コードは {code} です'),
  confirm_required: text(
    'This action require confirm current user',
    '此操作需要确认当前用户',
    'この操作には現在のユーザーの確認が必要です',
  ),
  confirm_no_backend: text(
    'This action require verify your MFA',
    '此操作需要验证您的 MFA',
    'この操作には MFA の検証が必要です',
  ),
  confirm_type_invalid: text(
    'Unknown confirm type "{type}": use relogin, password or mfa.',
    '未知的确认类型 “{type}”：请使用 relogin、password 或 mfa。',
    '不明な確認タイプ "{type}"：relogin、password、mfa のいずれかを使用してください。',
  ),
  confirm_password_failed: text(
    'Authentication failed (password incorrect)',
    '认证失败（密码错误）',
    '認証に失敗しました（パスワードが正しくありません）',
  ),
  relogin_expired: text(
    'Login time has exceeded 5 minutes, please login again',
    '登录时间已超过 5 分钟，请重新登录',
    'ログインから 5 分以上経過しました。もう一度ログインしてください',
  ),
  decrypt_failed: text(
    'The encrypted value could not be read (the page key changed): reload the page and try again.',
    '无法读取加密值（页面密钥已变化）：请刷新页面后重试。',
    '暗号化された値を読み取れません（ページの鍵が変わりました）。ページを再読み込みしてもう一度お試しください。',
  ),
  otp_already_bound: text(
    'An OTP authenticator is already bound: unbind it first.',
    '已绑定 OTP 验证器：请先解绑。',
    'OTP 認証アプリはすでに紐付けられています。先に解除してください。',
  ),
  otp_not_bound: text(
    'No OTP authenticator is bound.',
    '未绑定 OTP 验证器。',
    'OTP 認証アプリが紐付けられていません。',
  ),
  otp_bind_expired: text(
    'The binding has expired: start again.',
    '绑定已过期：请重新开始。',
    '紐付けの有効期限が切れました。最初からやり直してください。',
  ),
  code_required: text(
    'Enter the 6-digit code of your authenticator app.',
    '请输入验证器应用中的 6 位验证码。',
    '認証アプリの 6 桁のコードを入力してください。',
  ),
  block_ip: text(
    'The address has been locked (please contact admin to unlock it or try again after {minutes} minutes)',
    'IP 已被锁定 (请联系管理员解锁或 {minutes} 分钟后重试)',
    'このアドレスはロックされています（管理者に連絡してロックを解除するか、{minutes} 分後に再試行してください）',
  ),
} satisfies Record<string, I18nText>;

export type AuthMessageKey = keyof typeof MESSAGES;

export const ta = translator(MESSAGES);
