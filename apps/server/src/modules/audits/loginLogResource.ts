import { sql } from 'kysely';
import { ROOT_ORG_ID, text } from '@gatehouse/contract';
import { parseBool } from '../../resource/coerce.ts';
import { f } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { BACKEND_LABELS, reasonLabel } from './loginLogLabels.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';

/**
 * Login logs (`login-logs/`, `my-login-logs/`): read-only. Outside the global
 * org only the logs of the current org's members are shown; `my-login-logs/` narrows to the
 * caller's username (see loginLogRoutes.ts).
 */
export const loginLogResource: ResourceDef = {
  model: 'userloginlog',
  app: 'audits',
  url: '/api/v1/audits/login-logs/',
  table: 'audits_userloginlog',
  label: text('User login log', '用户登录日志', 'ユーザーログインログ'),
  orgScoped: false,
  defaultOrder: ['-datetime'],
  dateRangeField: 'datetime',
  fields: {
    id: f.id(),
    username: f.string(text('Username', '用户名', 'ユーザー名'), { readOnly: true, search: true, filter: true }),
    type: f.choice(
      text('Login type', '登录方式', 'ログインタイプ'),
      [
        { value: 'W', label: text('Web', 'Web', 'Web') },
        { value: 'T', label: text('Terminal', '终端', 'ターミナル') },
        { value: 'U', label: text('Unknown', '未知', '不明') },
      ],
      { readOnly: true, filter: true },
    ),
    ip: f.string(text('Login IP', '登录IP', 'ログインIP'), { readOnly: true, search: true, filter: true }),
    city: f.string(text('Login city', '登录城市', 'ログイン都市'), { readOnly: true, search: true, filter: true }),
    user_agent: f.string(text('User agent', '用户代理', 'ユーザーエージェント'), { readOnly: true }),
    mfa: f.choice(
      text('MFA', 'MFA', 'MFA'),
      [
        { value: 0, label: text('Disabled', '禁用', '無効') },
        { value: 1, label: text('Enabled', '启用', '有効') },
        { value: 2, label: text('-', '-', '-') },
      ],
      { readOnly: true, filter: true },
    ),
    reason: f.string(text('Reason', '原因', '理由'), { readOnly: true }),
    reason_display: f.computed('string', text('Reason display', '原因描述', '理由の表示'), (r, ctx) =>
      reasonLabel(String(r.reason ?? ''), ctx.req.lang),
    ),
    backend: f.string(text('Authentication backend', '认证方式', '認証方法'), { readOnly: true }),
    backend_display: f.computed(
      'string',
      text('Authentication backend', '认证方式', '認証方法'),
      (r, ctx) => BACKEND_LABELS[String(r.backend)]?.[ctx.req.lang] ?? String(r.backend ?? ''),
    ),
    status: f.computed(
      'labeled_choice',
      text('Status', '状态', '状態'),
      (r, ctx) => {
        const ok = r.status === true || r.status === 1;
        return {
          value: ok,
          label: (ok ? text('Success', '成功', '成功') : text('Failed', '失败', '失敗'))[ctx.req.lang],
        };
      },
      {
        column: 'status',
        choices: [
          { value: true, label: text('Success', '成功', '成功') },
          { value: false, label: text('Failed', '失败', '失敗') },
        ],
        filter: (q, value) => {
          const v = parseBool(value);
          return v === undefined
            ? q.where(sql.lit(false))
            : q.where('audits_userloginlog.status' as never, '=', v as never);
        },
      },
    ),
    datetime: f.datetime(text('Date login', '登录日期', 'ログイン日'), { readOnly: true, order: true }),
  },
  scope(q, ctx) {
    if (ctx.req.org.id === ROOT_ORG_ID) return q;
    const members = ctx.db
      .selectFrom('users_user')
      .select('username')
      .where('id', 'in', orgMemberIds(ctx.db, ctx.req.org.id));
    return q.where(sql.ref('audits_userloginlog.username'), 'in', members);
  },
};
