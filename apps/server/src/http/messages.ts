import { text, translator, type I18nText } from '@gatehouse/contract';

/** Server-side messages in the three languages (api-contract §1.13: API messages are translated). */
const MESSAGES = {
  not_authenticated: text(
    'Authentication credentials were not provided.',
    '身份认证信息未提供。',
    '認証情報が提供されていません。',
  ),
  invalid_token: text(
    'Invalid token or cache refreshed.',
    '无效的令牌或缓存已刷新。',
    'トークンが無効か、キャッシュが更新されました。',
  ),
  permission_denied: text(
    'You do not have permission to perform this action.',
    '您没有执行该操作的权限。',
    'この操作を実行する権限がありません。',
  ),
  not_found: text('Not found', '未找到', '見つかりません'),
  server_error: text('Server internal error', '服务器内部错误', 'サーバー内部エラー'),
  method_not_allowed: text(
    'Method "{method}" not allowed.',
    '方法 “{method}” 不被允许。',
    'メソッド "{method}" は許可されていません。',
  ),
  csrf_failed: text(
    'CSRF check failed: reload the page and try again.',
    'CSRF 校验失败：请刷新页面后重试。',
    'CSRF 検証に失敗しました。ページを再読み込みしてもう一度お試しください。',
  ),
  field_required: text('This field is required.', '该字段是必填项。', 'このフィールドは必須です。'),
  password_failed: text(
    'The username or password you entered is incorrect, please enter it again. You can also try {times} times (The account will be temporarily locked for {minutes} minutes)',
    '您输入的用户名或密码不正确，请重新输入。 您还可以尝试 {times} 次（账号将被临时锁定 {minutes} 分钟）',
    '入力したユーザー名またはパスワードが正しくありません。もう一度入力してください。あと {times} 回試行できます（アカウントは {minutes} 分間一時的にロックされます）',
  ),
  block_login: text(
    'The account has been locked (please contact admin to unlock it or try again after {minutes} minutes)',
    '账号已被锁定 (请联系管理员解锁或 {minutes} 分钟后重试)',
    'アカウントがロックされています（管理者に連絡してロックを解除するか、{minutes} 分後に再試行してください）',
  ),
  user_inactive: text('This account is inactive.', '此账号已禁用', 'このアカウントは無効です。'),
  user_expired: text('This account is expired', '此账号已过期', 'このアカウントは期限切れです'),
  unsupported_media: text(
    'Unsupported content type "{type}": send application/json.',
    '不支持的内容类型 “{type}”：请发送 application/json。',
    'サポートされていないコンテンツタイプ "{type}"：application/json を送信してください。',
  ),
  invalid_json: text(
    'The request body is not valid JSON.',
    '请求体不是有效的 JSON。',
    'リクエスト本文が有効な JSON ではありません。',
  ),
  file_too_large: text(
    'The file is larger than 30 MB: split it into smaller files.',
    '文件大于 30 MB：请拆分为更小的文件。',
    'ファイルが 30 MB を超えています。小さなファイルに分割してください。',
  ),
  file_type: text(
    'Unsupported file type "{type}": upload a CSV (text/csv) or Excel (text/xlsx) file.',
    '不支持的文件类型 “{type}”：请上传 CSV（text/csv）或 Excel（text/xlsx）文件。',
    'サポートされていないファイル形式 "{type}"：CSV（text/csv）または Excel（text/xlsx）ファイルをアップロードしてください。',
  ),
  websocket_origin: text(
    'This connection must come from a page of this site.',
    '此连接必须来自本站的页面。',
    'この接続はこのサイトのページから行う必要があります。',
  ),
  websocket_limit: text(
    'Too many open connections: at most {max} per user. Close other tabs and try again.',
    '打开的连接过多：每个用户最多 {max} 个。请关闭其他标签页后重试。',
    '開いている接続が多すぎます（ユーザーあたり最大 {max} 個）。他のタブを閉じてもう一度お試しください。',
  ),
  body_too_large: text(
    'The request body is larger than {max} KB.',
    '请求体大于 {max} KB。',
    'リクエスト本文が {max} KB を超えています。',
  ),
  console_not_built: text(
    'The console is not built yet: run "npm run build" and reload.',
    '控制台尚未构建：请运行 “npm run build” 后刷新。',
    'コンソールはまだビルドされていません。"npm run build" を実行して再読み込みしてください。',
  ),
} satisfies Record<string, I18nText>;

export type MessageKey = keyof typeof MESSAGES;

export const t = translator(MESSAGES);
