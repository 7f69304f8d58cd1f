import { sql } from 'kysely';
import { f, L } from '../../resource/fields.ts';
import { dyn, type ResourceCtx, type ResourceDef, type Row, type WriteEvent } from '../../resource/types.ts';
import { toBool } from '../../platform/db/schema.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import { ACTION_CHOICES, ACTION_TREE, ALL_ACTIONS, actionsOut, parseActions } from './actions.ts';
import { M, pm } from './permMessages.ts';
import { PERM_FILTERS } from './permFilters.ts';
import { queryFlag } from '../../http/queryString.ts';
import { afterCommit } from '../../resource/write.ts';
import { templateAccounts } from './templateAccountsPort.ts';

/**
 * `perms/asset-permissions/`: who (users, user groups) may use what (assets, nodes with their
 * subtrees), with which accounts and actions, between two dates. Everything linked must belong to
 * the permission's org (checked in `validate`, whatever org the request names).
 */
const T = 'perms_assetpermission';
/** The default validity: 70 years, as the original. */
const SEVENTY_YEARS_MS = 70 * 365.25 * 24 * 3600 * 1000;
const ALIASES = ['@ALL', '@INPUT', '@USER', '@ANON'];

type Errors = Record<string, string[]>;

function jsonInput(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v.split(',');
  }
}

const LINKS = {
  users: { table: 'perms_assetpermission_users', right: 'user_id', target: 'users_user' },
  user_groups: { table: 'perms_assetpermission_user_groups', right: 'usergroup_id', target: 'users_usergroup' },
  assets: { table: 'perms_assetpermission_assets', right: 'asset_id', target: 'assets_asset' },
  nodes: { table: 'perms_assetpermission_nodes', right: 'node_id', target: 'assets_node' },
} as const;
export type LinkName = keyof typeof LINKS;
export const PERM_LINKS = LINKS;

const nodeOut = (r: Row) => ({ id: r.id, name: r.value });

function amountsField(link: LinkName, label: (typeof M)[keyof typeof M]) {
  return f.computed('integer', label, (row) => Number(row[`__${link}_amount`] ?? 0));
}

/** The ids among `ids` that may be linked to a permission of `orgId`. */
export async function linkableIds(
  ctx: ResourceCtx,
  link: LinkName,
  orgId: string,
  ids: string[],
): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const { target } = LINKS[link];
  let q = dyn(ctx).selectFrom(target).select(`${target}.id`).where(`${target}.id`, 'in', ids);
  q =
    link === 'users'
      ? q.where(`${target}.id`, 'in', orgMemberIds(ctx.db, orgId))
      : q.where(`${target}.org_id`, '=', orgId);
  return new Set(((await q.execute()) as Row[]).map((r) => String(r.id)));
}

async function validate(data: Row, ctx: ResourceCtx & { id?: string; before?: Row }): Promise<Errors | undefined> {
  const errors: Errors = {};
  const org = String(ctx.before?.org_id ?? ctx.req.org.id);
  for (const link of Object.keys(LINKS) as LinkName[]) {
    const ids = data[link] as string[] | undefined;
    if (!ids?.length) continue;
    const ok = await linkableIds(ctx, link, org, ids);
    const bad = ids.find((i) => !ok.has(i));
    if (bad) errors[link] = [pm(ctx.req.lang, 'relation_other_org', { pk: bad })];
  }
  const accounts = data.accounts === undefined ? undefined : (JSON.parse(String(data.accounts)) as string[]);
  const templates = (accounts ?? []).filter((a) => a.startsWith('%')).map((a) => a.slice(1));
  if (templates.length) {
    const found = new Set(
      (
        await ctx.db
          .selectFrom('accounts_accounttemplate')
          .select('id')
          .where('id', 'in', templates)
          .where('org_id', '=', org)
          .execute()
      ).map((r) => r.id),
    );
    const missing = templates.find((t) => !found.has(t));
    if (missing) errors.accounts = [pm(ctx.req.lang, 'accounts_template_missing', { value: missing })];
  }
  const start = String(data.date_start ?? ctx.before?.date_start ?? '');
  const end = String(data.date_expired ?? ctx.before?.date_expired ?? '');
  if (start && end && end <= start) errors.date_expired = [pm(ctx.req.lang, 'date_order')];
  return Object.keys(errors).length ? errors : undefined;
}

/** users_amount, user_groups_amount, assets_amount, nodes_amount of a page of rows: one grouped count each. */
async function prepare(rows: Row[], ctx: ResourceCtx): Promise<void> {
  const ids = rows.map((r) => String(r.id));
  if (!ids.length) return;
  for (const link of Object.keys(LINKS) as LinkName[]) {
    const counts = (await dyn(ctx)
      .selectFrom(LINKS[link].table)
      .select(['assetpermission_id', (eb) => eb.fn.countAll().as('n')])
      .where('assetpermission_id', 'in', ids)
      .groupBy('assetpermission_id')
      .execute()) as Row[];
    const by = new Map(counts.map((c) => [String(c.assetpermission_id), Number(c.n)]));
    for (const r of rows) r[`__${link}_amount`] = by.get(String(r.id)) ?? 0;
  }
}

/**
 * Accounts from the `%<template id>` items of a permission whose accounts, assets or nodes were
 * written: created (and pushed where the template asks) on its assets once the write is committed.
 */
async function templateAccountsAfterWrite({ ctx, id, data, before }: WriteEvent): Promise<void> {
  const port = templateAccounts();
  if (!port || !['accounts', 'assets', 'nodes'].some((k) => data[k] !== undefined)) return;
  const accounts = String(data.accounts ?? before?.accounts ?? '[]');
  if (!accounts.includes('"%')) return;
  afterCommit(ctx, () => port(ctx.req, id));
}

const isValid = (row: Row) => {
  const now = new Date().toISOString();
  return toBool(row.is_active) && row.date_start <= now && row.date_expired > now;
};

export const assetPermissionResource: ResourceDef = {
  model: 'assetpermission',
  app: 'perms',
  url: '/api/v1/perms/asset-permissions/',
  table: T,
  label: M.model_assetpermission,
  orgScoped: true,
  defaultOrder: ['name'],
  fieldsMini: ['id', 'name'],
  fieldsSmall: ['id', 'name', 'is_active', 'is_valid', 'date_start', 'date_expired'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
    users: f.m2m(
      M.field_users,
      {
        table: 'users_user',
        output: (r) => ({ id: r.id, name: r.name, username: r.username }),
        through: { table: LINKS.users.table, left: 'assetpermission_id', right: 'user_id' },
      },
      { default: [] },
    ),
    user_groups: f.m2m(
      M.field_user_groups,
      {
        table: 'users_usergroup',
        through: { table: LINKS.user_groups.table, left: 'assetpermission_id', right: 'usergroup_id' },
      },
      { default: [] },
    ),
    assets: f.m2m(
      M.field_assets,
      {
        table: 'assets_asset',
        output: (r) => ({ id: r.id, name: r.name, address: r.address }),
        through: { table: LINKS.assets.table, left: 'assetpermission_id', right: 'asset_id' },
      },
      { default: [] },
    ),
    nodes: f.m2m(
      M.field_nodes,
      {
        table: 'assets_node',
        labelColumn: 'value',
        output: nodeOut,
        through: { table: LINKS.nodes.table, left: 'assetpermission_id', right: 'node_id' },
      },
      { default: [] },
    ),
    accounts: f.list(M.field_accounts, {
      default: ['@ALL'],
      async parse(v, ctx) {
        const raw = jsonInput(v);
        if (!Array.isArray(raw) || raw.some((a) => typeof a !== 'string' || a.trim().length > 128))
          return { error: pm(ctx.req.lang, 'accounts_invalid') };
        const items = [...new Set(raw.map((a: string) => a.trim()).filter(Boolean))];
        // Aliases first, in their usual order; then usernames and templates as given.
        const sorted = [...ALIASES.filter((a) => items.includes(a)), ...items.filter((a) => !ALIASES.includes(a))];
        return { value: JSON.stringify(sorted) };
      },
    }),
    actions: {
      type: 'tree',
      label: M.field_actions,
      choices: ACTION_CHOICES,
      tree: ACTION_TREE,
      default: ACTION_CHOICES.map((c) => c.value),
      async parse(v, ctx) {
        const r = parseActions(typeof v === 'string' && v !== 'all' ? jsonInput(v) : v);
        return 'bad' in r ? { error: pm(ctx.req.lang, 'actions_invalid', { value: r.bad }) } : { value: r.mask };
      },
      out: (stored, ctx) => actionsOut(Number(stored ?? ALL_ACTIONS), ctx.req.lang),
    },
    date_start: f.datetime(M.field_date_start, { default: () => new Date().toISOString(), order: true }),
    date_expired: f.datetime(M.field_date_expired, {
      default: () => new Date(Date.now() + SEVENTY_YEARS_MS).toISOString(),
      order: true,
    }),
    is_active: f.bool(L.is_active, { default: true, filter: true }),
    is_expired: f.computed('boolean', M.field_is_expired, (row) => row.date_expired <= new Date().toISOString()),
    is_valid: f.computed('boolean', M.field_is_valid, isValid),
    from_ticket: f.computed('boolean', M.field_from_ticket, (row) => toBool(row.from_ticket), {
      filter: (q, v) => q.where(sql.ref(`${T}.from_ticket`), '=', queryFlag(v)),
    }),
    users_amount: amountsField('users', M.field_users_amount),
    user_groups_amount: amountsField('user_groups', M.field_user_groups_amount),
    assets_amount: amountsField('assets', M.field_assets_amount),
    nodes_amount: amountsField('nodes', M.field_nodes_amount),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  extraFilters: PERM_FILTERS,
  prepare,
  hooks: { validate, afterCreate: templateAccountsAfterWrite, afterUpdate: templateAccountsAfterWrite },
};
