import { sql } from 'kysely';
import {
  ACL_ACTIONS,
  ACL_PRIORITY_DEFAULT,
  ACL_PRIORITY_MAX,
  ACL_PRIORITY_MIN,
  CONNECT_METHODS,
  ROOT_ORG_ID,
  type AclKind,
} from '@gatehouse/contract';
import { f, L } from '../../resource/fields.ts';
import {
  dyn,
  type AnyQuery,
  type FieldDef,
  type ResourceCtx,
  type ResourceDef,
  type Row,
} from '../../resource/types.ts';
import type { DB } from '../../platform/db/schema.ts';
import { am, M, type AclMessageKey } from './aclMessages.ts';
import { invalidIpItem } from './matcher/ipGroup.ts';
import { checkSelector } from './matcher/selector.ts';
import { ALL_WEEK, checkTimePeriods } from './matcher/timePeriod.ts';
import { ASSET_ATTRS, USER_ATTRS } from './subjects.ts';

/** Fields every kind of rule shares, and the parsers of their JSON parts (with their messages). */

type Parsed = { value?: unknown; error?: string };
const fail = (ctx: ResourceCtx, key: AclMessageKey, params?: Record<string, string>): Parsed => ({
  error: am(ctx.req.lang, key, params),
});

function jsonInput(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

function selectorField(label: FieldDef['label'], attrs: readonly string[]): FieldDef {
  return f.json(label, {
    required: true,
    async parse(v, ctx) {
      const r = checkSelector(jsonInput(v), attrs);
      if ('error' in r) return fail(ctx, r.error.code, 'value' in r.error ? { value: r.error.value } : undefined);
      return { value: JSON.stringify(r.value) };
    },
  });
}

export const usersField = () => selectorField(M.field_users, USER_ATTRS);
export const assetsField = () => selectorField(M.field_assets, ASSET_ATTRS);

/** `rules`: `{ip_group, time_period}`; a missing part gets its default (any address, the whole week). */
export function rulesField(): FieldDef {
  return f.json(M.field_rules, {
    default: () => ({ ip_group: ['*'], time_period: ALL_WEEK }),
    async parse(v, ctx) {
      const raw = jsonInput(v);
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail(ctx, 'rules_not_object');
      const r = raw as Row;
      const ipGroup = r.ip_group === undefined ? ['*'] : r.ip_group;
      if (!Array.isArray(ipGroup)) return fail(ctx, 'ip_group_not_list');
      const items = ipGroup.map((i) => String(i).trim()).filter(Boolean);
      if (!items.length) return fail(ctx, 'ip_group_empty');
      const bad = invalidIpItem(items);
      if (bad) return fail(ctx, bad.error, { value: bad.item });
      const tp = checkTimePeriods(r.time_period === undefined ? ALL_WEEK : r.time_period);
      if ('error' in tp) return fail(ctx, tp.error.code, 'value' in tp.error ? { value: tp.error.value } : undefined);
      return { value: JSON.stringify({ ip_group: items, time_period: tp.value }) };
    },
  });
}

export function accountsField(): FieldDef {
  return f.list(M.field_accounts, {
    default: ['@ALL'],
    async parse(v, ctx) {
      const raw = jsonInput(v);
      if (!Array.isArray(raw) || raw.some((a) => typeof a !== 'string' || a.length > 128))
        return fail(ctx, 'accounts_invalid');
      const list = [...new Set(raw.map((a: string) => a.trim()).filter(Boolean))];
      if (!list.length) return fail(ctx, 'accounts_empty');
      return { value: JSON.stringify(list) };
    },
  });
}

export function connectMethodsField(): FieldDef {
  return f.list(M.field_connect_methods, {
    required: true,
    async parse(v, ctx) {
      const raw = jsonInput(v);
      if (!Array.isArray(raw)) return fail(ctx, 'connect_methods_empty');
      const list = [
        ...new Set(
          raw.map((m) => String(m && typeof m === 'object' ? ((m as Row).value ?? '') : m).trim()).filter(Boolean),
        ),
      ];
      const unknown = list.find((m) => !CONNECT_METHODS.includes(m));
      if (unknown) return fail(ctx, 'connect_methods_invalid', { value: unknown, known: CONNECT_METHODS.join(', ') });
      if (!list.length) return fail(ctx, 'connect_methods_empty');
      return { value: JSON.stringify(list) };
    },
  });
}

const ACTION_LABEL = {
  reject: M.action_reject,
  accept: M.action_accept,
  review: M.action_review,
  warning: M.action_warning,
} as const;

/** The fields every rule has: name, priority, action (as the kind allows), reviewers, is_active, comment. */
export function baseAclFields(kind: AclKind, orgScoped: boolean): Record<string, FieldDef> {
  const reviewersTable = `acls_${kind}_reviewers` as keyof DB & string;
  return {
    id: f.id(),
    name: f.string(L.name, { required: true, unique: true, search: true, filter: true, order: true }),
    priority: f.int(M.field_priority, {
      default: ACL_PRIORITY_DEFAULT,
      minValue: ACL_PRIORITY_MIN,
      maxValue: ACL_PRIORITY_MAX,
      helpText: M.help_priority,
      order: true,
    }),
    action: f.choice(
      M.field_action,
      ACL_ACTIONS[kind].map((a) => ({ value: a, label: ACTION_LABEL[a] })),
      { default: 'reject', filter: true },
    ),
    ...(kind === 'connectmethodacl'
      ? { reviewers: f.computed('m2m_related_field', M.field_reviewers, () => []) }
      : {
          reviewers: f.m2m(
            M.field_reviewers,
            {
              table: 'users_user',
              through: { table: reviewersTable, left: 'acl_id', right: 'user_id' },
              choosable: (q, ctx) => (orgScoped ? members(q, ctx) : q),
            },
            { default: [] },
          ),
        }),
    is_active: f.bool(L.is_active, { default: true, filter: true }),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  };
}

/** Users that are members of the request's org (any user in the root org). */
function members(q: AnyQuery, ctx: ResourceCtx): AnyQuery {
  if (ctx.req.org.id === ROOT_ORG_ID) return q;
  return q.where(
    sql.ref('users_user.id'),
    'in',
    ctx.db
      .selectFrom('rbac_rolebinding')
      .select('user_id')
      .where('scope', '=', 'org')
      .where('org_id', '=', ctx.req.org.id),
  );
}

/** Review needs recipients (checked on the whole object, so a PATCH of either field is covered). */
export function reviewersRequired(kind: AclKind): NonNullable<NonNullable<ResourceDef['hooks']>['validate']> {
  return async (data, ctx) => {
    const action = data.action ?? ctx.before?.action;
    if (action !== 'review') return undefined;
    let reviewers = data.reviewers as string[] | undefined;
    if (reviewers === undefined && ctx.id) {
      const rows = (await dyn(ctx)
        .selectFrom(`acls_${kind}_reviewers`)
        .select('user_id')
        .where('acl_id', '=', ctx.id)
        .execute()) as Row[];
      reviewers = rows.map((r) => String(r.user_id));
    }
    return reviewers?.length ? undefined : { reviewers: [am(ctx.req.lang, 'reviewers_required')] };
  };
}
