import {
  BUILTIN_ROLE_LABELS,
  ROOT_ORG_ID,
  USERNAME_MESSAGES,
  usernameProblem,
  type BuiltinRoleName,
} from '@gatehouse/contract';
import { f, L } from '../../resource/fields.ts';
import type { FieldDef, ResourceCtx, Row, Validator } from '../../resource/types.ts';
import { toBool } from '../../platform/db/schema.ts';
import { defaultDateExpired } from '../bootstrap/seed.ts';
import { MFA_LEVEL_LABELS, SOURCE_LABELS } from './labels.ts';
import { parsePublicKey } from './profilePublicKey.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type usersMessages from '../../platform/i18n/locales/en/users.json';
const M = catalogue<typeof usersMessages>('users');

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

const ORG_ROLES_IN_GLOBAL_ORG = M.org_roles_are_given_inside_an;

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
  username: f.string(M.username, {
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
  email: f.email(M.email, {
    required: true,
    unique: true,
    search: true,
    filter: true,
    order: true,
  }),
  password: {
    type: 'string',
    label: M.password_label,
    writeOnly: true,
    encrypted: true,
    maxLength: 1024,
    column: false,
  },
  // Write-only, as v3.7.1's admin form sends it; the profile's rule (profilePublicKey.ts): one
  // public key line, normalised, or '' to remove it. It signs the user in on the native SSH port.
  public_key: {
    type: 'string',
    label: M.public_key,
    writeOnly: true,
    maxLength: 16384,
    parse: async (v, ctx) => {
      if (v === '') return { value: '' };
      try {
        return { value: parsePublicKey(v, ctx.req.lang) };
      } catch {
        return { error: M.public_key_invalid[ctx.req.lang] };
      }
    },
  },
  password_strategy: f.choice(
    M.password_strategy,
    [
      {
        value: 'email',
        label: M.reset_link_will_be_generated_and,
      },
      { value: 'custom', label: M.set_password },
    ],
    { writeOnly: true, column: false, default: 'email', noExport: true },
  ),
  groups: f.m2m(
    M.user_group,
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
  system_roles: roleField(M.system_roles, 'system'),
  org_roles: roleField(M.org_roles, 'org'),
  source: f.choice(M.source, choices(SOURCE_LABELS), {
    default: 'local',
    filter: true,
    order: true,
  }),
  mfa_level: f.choice(M.mfa, choices(MFA_LEVEL_LABELS, true), { default: 0 }),
  is_active: f.bool(L.is_active, { default: true, filter: true, order: true }),
  need_update_password: f.bool(M.need_update_password, {
    default: false,
  }),
  date_expired: f.datetime(M.date_expired, {
    default: () => defaultDateExpired(),
    order: true,
  }),
  phone: f.string(M.phone, { default: '' }),
  wechat: f.string(M.wechat, { default: '' }),
  /** The messenger ids bound from the profile or by the first sign-in through it (authentication/im/). */
  wecom_id: f.string(M.wecom, { readOnly: true }),
  dingtalk_id: f.string(M.dingtalk, { readOnly: true }),
  feishu_id: f.string(M.feishu, { readOnly: true }),
  comment: f.comment(),
  is_valid: f.computed('boolean', M.is_valid, (r) => toBool(r.is_active) && !isExpired(r)),
  is_expired: f.computed('boolean', M.is_expired, isExpired),
  is_first_login: f.computed('boolean', M.is_first_login, (r) => toBool(r.is_first_login)),
  is_service_account: f.computed('boolean', M.is_service_account, (r) => toBool(r.is_service_account)),
  is_superuser: f.computed('boolean', M.super_administrator, (r) => Boolean(r.__superuser)),
  is_org_admin: f.computed('boolean', M.org_admin, (r) => Boolean(r.__org_admin)),
  mfa_enabled: f.computed('boolean', M.mfa_enabled, (r) => Number(r.mfa_level) > 0),
  mfa_force_enabled: f.computed('boolean', M.mfa_force_enabled, (r) => Number(r.mfa_level) === 2),
  is_otp_secret_key_bound: f.computed('boolean', M.otp_bound, (r) => Boolean(r.otp_secret_key)),
  login_blocked: f.computed('boolean', M.login_blocked, (r) => Boolean(r.__blocked)),
  date_joined: f.computed('datetime', M.date_joined, undefined, {
    column: 'date_joined',
    read: undefined,
    order: true,
  }),
  last_login: f.computed('datetime', M.last_login, undefined, {
    column: 'last_login',
    read: undefined,
    order: true,
  }),
  date_password_last_updated: f.computed('datetime', M.date_password_last_updated, undefined, {
    column: 'date_password_last_updated',
    read: undefined,
  }),
  created_by: f.createdBy(),
  updated_by: f.updatedBy(),
  date_updated: f.dateUpdated(),
};
