import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { f } from '../../resource/fields.ts';
import {
  dyn,
  type AnyQuery,
  type FieldDef,
  type ResourceCtx,
  type ResourceDef,
  type Row,
} from '../../resource/types.ts';
import { M } from './aclMessages.ts';
import {
  accountsField,
  assetsField,
  baseAclFields,
  connectMethodsField,
  reviewersRequired,
  rulesField,
  usersField,
} from './aclFields.ts';
import { selects, type Selector } from './matcher/selector.ts';
import { loadAssets, loadUsers } from './subjects.ts';
import { commandGroupResource } from './commandGroupResource.ts';

/**
 * The four kinds of rules. Login and connect-method rules live outside
 * organisations (system-only permissions); login-asset and command-filter rules in one.
 * Ordering `priority, -is_active, name`: the list shows rules in the order they apply.
 */
const ORDER = ['priority', '-is_active', 'name'];
const URL = '/api/v1/acls';

function parseSelector(raw: unknown): Selector | undefined {
  try {
    return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Selector;
  } catch {
    return undefined;
  }
}

/**
 * Filter `users=<id|username|name>` / `assets=<id|name|address>`: the rules whose selector
 * picks that object (the same matcher as enforcement, so the filter shows what would apply).
 */
function filterBy(kind: 'users' | 'assets', table: string) {
  return async (q: AnyQuery, value: string, ctx: ResourceCtx): Promise<AnyQuery> => {
    const org = ctx.req.org.id;
    const subjects =
      kind === 'users'
        ? (await loadUsers(ctx.db, {})).filter((u) => [u.id, u.attrs.username, u.attrs.name].includes(value))
        : (await loadAssets(ctx.db, { orgId: org })).filter((a) =>
            [a.id, a.attrs.name, a.attrs.address].includes(value),
          );
    const rows = (await dyn(ctx).selectFrom(table).select(['id', kind]).execute()) as Row[];
    const ids = rows
      .filter((r) => subjects.some((s) => selects(parseSelector(r[kind]), s.id, s.attrs)))
      .map((r) => String(r.id));
    return q.where(sql.ref(`${table}.id`), 'in', ids.length ? ids : ['']);
  };
}

const withFilter = (field: FieldDef, kind: 'users' | 'assets', table: string): FieldDef => ({
  ...field,
  filter: filterBy(kind, table),
});

export const loginAclResource: ResourceDef = {
  model: 'loginacl',
  app: 'acls',
  url: `${URL}/login-acls/`,
  table: 'acls_loginacl',
  label: M.model_loginacl,
  orgScoped: false,
  defaultOrder: ORDER,
  fieldsMini: ['id', 'name'],
  fields: {
    ...baseAclFields('loginacl', false),
    users: withFilter(usersField(), 'users', 'acls_loginacl'),
    rules: rulesField(),
  },
  hooks: { validate: reviewersRequired('loginacl') },
};

export const connectMethodAclResource: ResourceDef = {
  model: 'connectmethodacl',
  app: 'acls',
  url: `${URL}/connect-method-acls/`,
  table: 'acls_connectmethodacl',
  label: M.model_connectmethodacl,
  orgScoped: false,
  defaultOrder: ORDER,
  fieldsMini: ['id', 'name'],
  fields: {
    ...baseAclFields('connectmethodacl', false),
    users: withFilter(usersField(), 'users', 'acls_connectmethodacl'),
    connect_methods: connectMethodsField(),
  },
  extraFilters: {
    methods: async (q, value) =>
      q.where(sql.ref('acls_connectmethodacl.connect_methods'), 'like', `%"${value.replace(/["%_\\]/g, '')}"%`),
  },
};

export const loginAssetAclResource: ResourceDef = {
  model: 'loginassetacl',
  app: 'acls',
  url: `${URL}/login-asset-acls/`,
  table: 'acls_loginassetacl',
  label: M.model_loginassetacl,
  orgScoped: true,
  defaultOrder: ORDER,
  fieldsMini: ['id', 'name'],
  fields: {
    ...baseAclFields('loginassetacl', true),
    users: withFilter(usersField(), 'users', 'acls_loginassetacl'),
    assets: withFilter(assetsField(), 'assets', 'acls_loginassetacl'),
    accounts: accountsField(),
    rules: rulesField(),
  },
  hooks: { validate: reviewersRequired('loginassetacl') },
};

export const commandFilterAclResource: ResourceDef = {
  model: 'commandfilteracl',
  app: 'acls',
  url: `${URL}/command-filter-acls/`,
  table: 'acls_commandfilteracl',
  label: M.model_commandfilteracl,
  orgScoped: true,
  defaultOrder: ORDER,
  fieldsMini: ['id', 'name'],
  fields: {
    ...baseAclFields('commandfilteracl', true),
    users: withFilter(usersField(), 'users', 'acls_commandfilteracl'),
    assets: withFilter(assetsField(), 'assets', 'acls_commandfilteracl'),
    accounts: accountsField(),
    command_groups: f.m2m(
      M.field_command_groups,
      {
        table: 'acls_commandgroup',
        through: {
          table: 'acls_commandfilteracl_command_groups',
          left: 'commandfilteracl_id',
          right: 'commandgroup_id',
        },
        choosable: (q, ctx) =>
          ctx.req.org.id === ROOT_ORG_ID ? q : q.where(sql.ref('acls_commandgroup.org_id'), '=', ctx.req.org.id),
      },
      { default: [] },
    ),
  },
  hooks: {
    validate: async (data, ctx) => {
      const more = await reviewersRequired('commandfilteracl')(data, ctx);
      if (more) return more;
      // A rule's groups belong to the rule's org (an update in the root org keeps them there).
      const groups = data.command_groups as string[] | undefined;
      const org = ctx.before?.org_id ?? ctx.req.org.id;
      if (groups?.length) {
        const inOrg = await ctx.db
          .selectFrom('acls_commandgroup')
          .select('id')
          .where('id', 'in', groups)
          .where('org_id', '=', org)
          .execute();
        const missing = groups.find((g) => !inOrg.some((r) => r.id === g));
        if (missing) return { command_groups: [`Invalid pk "${missing}" - object does not exist.`] };
      }
      return undefined;
    },
  },
};

export const ACL_RESOURCES: ResourceDef[] = [
  loginAclResource,
  loginAssetAclResource,
  commandFilterAclResource,
  commandGroupResource,
  connectMethodAclResource,
];
