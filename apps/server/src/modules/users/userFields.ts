import {
  BUILTIN_ROLE_LABELS,
  ROOT_ORG_ID,
  USERNAME_MESSAGES,
  text,
  usernameProblem,
  type BuiltinRoleName,
} from '@gatehouse/contract';
import { f, L } from '../../resource/fields.ts';
import type { FieldDef, ResourceCtx, Row, Validator } from '../../resource/types.ts';
import { toBool } from '../../platform/db/schema.ts';
import { defaultDateExpired } from '../bootstrap/seed.ts';
import { MFA_LEVEL_LABELS, SOURCE_LABELS } from './labels.ts';

/** Field declarations of the user, shared by the resource and its actions. */

const choices = (labels: Record<string, { en: string; zh: string; ja: string }>, numeric = false) =>
  Object.entries(labels).map(([value, label]) => ({ value: numeric ? Number(value) : value, label }));

const NO_EMOJI_MSG = USERNAME_MESSAGES.emoji;
const EMOJI_RE = /\p{Extended_Pictographic}/u;

function roleOutput(r: Row, ctx: ResourceCtx): Row {
  const builtin = toBool(r.builtin);
  const display = builtin ? (BUILTIN_ROLE_LABELS[r.name as BuiltinRoleName]?.[ctx.req.lang] ?? r.name) : r.name;
  return { id: r.id, name: r.name, display_name: display };
}

const now = () => Date.now();
const isExpired = (row: Row) => new Date(row.date_expired).getTime() <= now();

const ORG_ROLES_IN_GLOBAL_ORG = text(
  'Org roles are given inside an organisation: switch to one first',
  '组织角色只能在组织内设置，请先切换到一个组织',
  '組織ロールは組織内でのみ設定できます。先に組織を切り替えてください',
);

/** Org roles bind to the request's org: the global org is no organisation to bind in. */
const notInGlobalOrg: Validator = (v, c) =>
  c.req.org.id === ROOT_ORG_ID && Array.isArray(v) && v.length ? ORG_ROLES_IN_GLOBAL_ORG[c.req.lang] : undefined;

function roleField(label: { en: string; zh: string; ja: string }, scope: 'system' | 'org'): FieldDef {
  return f.m2m(
    label,
    {
      table: 'rbac_role',
      output: roleOutput,
      through: {
        table: 'rbac_rolebinding',
        left: 'user_id',
        right: 'role_id',
        where: (ctx) =>
          scope === 'system' ? { scope: 'system', org_id: null } : { scope: 'org', org_id: ctx.req.org.id },
        values: (ctx) => ({ created_by: ctx.req.user?.username ?? 'System', date_created: new Date().toISOString() }),
      },
      choosable: (q) => q.where('rbac_role.scope' as never, '=', scope as never),
    },
    {
      validate: scope === 'org' ? [notInGlobalOrg] : [],
      filter: (q, value, ctx) =>
        q.where((eb) =>
          eb.exists(
            ctx.db
              .selectFrom('rbac_rolebinding')
              .innerJoin('rbac_role', 'rbac_role.id', 'rbac_rolebinding.role_id')
              .select('rbac_rolebinding.id')
              .whereRef('rbac_rolebinding.user_id', '=', 'users_user.id' as never)
              .where('rbac_rolebinding.scope', '=', scope)
              .where((e) => e.or([e('rbac_role.id', '=', value), e('rbac_role.name', '=', value)])),
          ),
        ),
    },
  );
}

export const USER_FIELDS: Record<string, FieldDef> = {
  id: f.id(),
  name: f.string(L.name, {
    required: true,
    search: true,
    filter: true,
    order: true,
    validate: [(v, c) => (EMOJI_RE.test(String(v)) ? NO_EMOJI_MSG[c.req.lang] : undefined)],
  }),
  username: f.string(text('Username', '用户名', 'ユーザー名'), {
    required: true,
    unique: true,
    search: true,
    filter: true,
    order: true,
    validate: [
      (v, c) => {
        const problem = usernameProblem(String(v));
        return problem && USERNAME_MESSAGES[problem][c.req.lang];
      },
    ],
  }),
  email: f.email(text('Email', '邮箱', 'メール'), {
    required: true,
    unique: true,
    search: true,
    filter: true,
    order: true,
  }),
  password: {
    type: 'string',
    label: text('Password', '密码', 'パスワード'),
    writeOnly: true,
    maxLength: 1024,
    column: false,
  },
  password_strategy: f.choice(
    text('Password strategy', '密码策略', 'パスワード戦略'),
    [
      {
        value: 'email',
        label: text(
          'Reset link will be generated and sent to the user',
          '生成重置密码链接，通过邮件发送给用户',
          'リセットリンクが生成され、ユーザーに送信されます',
        ),
      },
      { value: 'custom', label: text('Set password', '设置密码', 'パスワードを設定') },
    ],
    { writeOnly: true, column: false, default: 'email', noExport: true },
  ),
  groups: f.m2m(
    text('User group', '用户组', 'ユーザーグループ'),
    {
      table: 'users_usergroup',
      through: { table: 'users_user_groups', left: 'user_id', right: 'usergroup_id' },
      choosable: (q, ctx) => q.where('users_usergroup.org_id' as never, '=', ctx.req.org.id as never),
    },
    {
      filter: (q, value, ctx) =>
        q.where((eb) =>
          eb.exists(
            ctx.db
              .selectFrom('users_user_groups')
              .innerJoin('users_usergroup', 'users_usergroup.id', 'users_user_groups.usergroup_id')
              .select('users_user_groups.id')
              .whereRef('users_user_groups.user_id', '=', 'users_user.id' as never)
              .where('users_usergroup.name', '=', value),
          ),
        ),
    },
  ),
  system_roles: roleField(text('System roles', '系统角色', 'システムロール'), 'system'),
  org_roles: roleField(text('Org roles', '组织角色', '組織ロール'), 'org'),
  source: f.choice(text('Source', '来源', 'ソース'), choices(SOURCE_LABELS), {
    default: 'local',
    filter: true,
    order: true,
  }),
  mfa_level: f.choice(text('MFA', 'MFA', 'MFA'), choices(MFA_LEVEL_LABELS, true), { default: 0 }),
  is_active: f.bool(L.is_active, { default: true, filter: true, order: true }),
  need_update_password: f.bool(text('Need update password', '下次登录须修改密码', '次回ログイン時にパスワードを変更'), {
    default: false,
  }),
  date_expired: f.datetime(text('Date expired', '失效日期', '有効期限'), {
    default: () => defaultDateExpired(),
    order: true,
  }),
  phone: f.string(text('Phone', '手机', '電話'), { default: '' }),
  wechat: f.string(text('WeChat', '微信', 'WeChat'), { default: '' }),
  comment: f.comment(),
  is_valid: f.computed('boolean', text('Is valid', '账号有效', '有効'), (r) => toBool(r.is_active) && !isExpired(r)),
  is_expired: f.computed('boolean', text('Is expired', '已过期', '期限切れ'), isExpired),
  is_first_login: f.computed('boolean', text('Is first login', '首次登录', '初回ログイン'), (r) =>
    toBool(r.is_first_login),
  ),
  is_service_account: f.computed('boolean', text('Is service account', '服务账号', 'サービスアカウント'), (r) =>
    toBool(r.is_service_account),
  ),
  is_superuser: f.computed('boolean', text('Super administrator', '超级管理员', 'スーパー管理者'), (r) =>
    Boolean(r.__superuser),
  ),
  is_org_admin: f.computed('boolean', text('Org admin', '组织管理员', '組織管理者'), (r) => Boolean(r.__org_admin)),
  mfa_enabled: f.computed('boolean', text('MFA enabled', 'MFA 已启用', 'MFA 有効'), (r) => Number(r.mfa_level) > 0),
  mfa_force_enabled: f.computed(
    'boolean',
    text('MFA force enabled', '强制 MFA', 'MFA 強制'),
    (r) => Number(r.mfa_level) === 2,
  ),
  is_otp_secret_key_bound: f.computed('boolean', text('OTP bound', '已绑定 OTP', 'OTP バインド済み'), (r) =>
    Boolean(r.otp_secret_key),
  ),
  login_blocked: f.computed('boolean', text('Login blocked', '登录被锁定', 'ログインブロック'), (r) =>
    Boolean(r.__blocked),
  ),
  date_joined: f.computed('datetime', text('Date joined', '创建日期', '登録日'), undefined, {
    column: 'date_joined',
    read: undefined,
    order: true,
  }),
  last_login: f.computed('datetime', text('Last login', '最后登录', '最終ログイン'), undefined, {
    column: 'last_login',
    read: undefined,
    order: true,
  }),
  date_password_last_updated: f.computed(
    'datetime',
    text('Date password last updated', '最后更新密码日期', 'パスワード最終更新日'),
    undefined,
    { column: 'date_password_last_updated', read: undefined },
  ),
  created_by: f.createdBy(),
  updated_by: f.updatedBy(),
  date_updated: f.dateUpdated(),
};
