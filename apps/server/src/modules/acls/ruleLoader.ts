import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { toBool } from '../../platform/db/schema.ts';
import type { CommandGroupType } from './matcher/commandGroup.ts';
import type { AclRule } from './matcher/rules.ts';

/**
 * The one loader of access-control rules for the matcher (`matcher/rules.ts` `decide`): the active
 * rules of one kind (of one org for the org-scoped kinds), their JSON columns parsed, their
 * reviewers and, for command filters, their command groups. Sign-in (`loginAcl.ts`), connection
 * tokens (`terminal/tokens/tokenAcls.ts`) and the gateway's command filter
 * (`terminal/gateway/commandPolicy.ts`) load through it. A JSON column that does not parse (a row
 * written by hand) reads as empty: the rule then matches nobody, it never fails the caller.
 */
export type AclKind = 'login' | 'loginAsset' | 'commandFilter' | 'connectMethod';

export interface LoadedRule extends AclRule {
  reviewers: string[];
}

const TABLES = {
  login: { rules: 'acls_loginacl', reviewers: 'acls_loginacl_reviewers', org: false },
  loginAsset: { rules: 'acls_loginassetacl', reviewers: 'acls_loginassetacl_reviewers', org: true },
  commandFilter: { rules: 'acls_commandfilteracl', reviewers: 'acls_commandfilteracl_reviewers', org: true },
  connectMethod: { rules: 'acls_connectmethodacl', reviewers: undefined, org: false },
} as const;

const parse = <T>(s: string | undefined, fallback: T): T => {
  if (s === undefined) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

/** The union of the rule tables' columns; each kind has some of them. */
interface RuleRow {
  id: string;
  name: string;
  priority: number;
  action: string;
  is_active: unknown;
  users: string;
  assets?: string;
  accounts?: string;
  rules?: string;
  connect_methods?: string;
}

export async function loadAclRules(
  db: Kysely<DB>,
  kind: AclKind,
  o: { orgId?: string; action?: AclRule['action'] } = {},
): Promise<LoadedRule[]> {
  const t = TABLES[kind];
  let q = db.selectFrom(t.rules).selectAll().where('is_active', '=', true);
  if (t.org) {
    if (o.orgId === undefined) throw new Error(`${kind} rules belong to an org`);
    q = q.where('org_id' as never, '=', o.orgId as never);
  }
  if (o.action) q = q.where('action', '=', o.action);
  const rows = (await q.execute()) as RuleRow[];
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const reviewers = t.reviewers
    ? await db.selectFrom(t.reviewers).select(['acl_id', 'user_id']).where('acl_id', 'in', ids).execute()
    : [];
  const groups =
    kind === 'commandFilter'
      ? await db
          .selectFrom('acls_commandfilteracl_command_groups as l')
          .innerJoin('acls_commandgroup as g', 'g.id', 'l.commandgroup_id')
          .select(['l.commandfilteracl_id as acl', 'g.id', 'g.name', 'g.type', 'g.content', 'g.ignore_case'])
          .where('l.commandfilteracl_id', 'in', ids)
          .execute()
      : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    priority: Number(r.priority),
    action: r.action as AclRule['action'],
    is_active: toBool(r.is_active as never),
    users: parse<AclRule['users']>(r.users, { type: 'ids', ids: [] }),
    ...('assets' in r ? { assets: parse<AclRule['assets']>(r.assets, { type: 'ids', ids: [] }) } : {}),
    ...('accounts' in r ? { accounts: parse<string[]>(r.accounts, []) } : {}),
    ...('rules' in r ? { rules: parse<AclRule['rules']>(r.rules, undefined) } : {}),
    ...('connect_methods' in r ? { connect_methods: parse<string[]>(r.connect_methods, []) } : {}),
    ...(kind === 'commandFilter'
      ? {
          command_groups: groups
            .filter((g) => g.acl === r.id)
            .map((g) => ({
              id: g.id,
              name: g.name,
              type: g.type as CommandGroupType,
              content: g.content,
              ignore_case: toBool(g.ignore_case),
            })),
        }
      : {}),
    reviewers: reviewers.filter((x) => x.acl_id === r.id).map((x) => x.user_id),
  }));
}
