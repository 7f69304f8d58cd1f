import type { Kysely } from 'kysely';
import { BUILTIN_ROLE_IDS, ROOT_ORG_ID } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import type { TicketType } from './stateMachine.ts';

/**
 * Who approves a ticket at each level: the flow of the ticket's org for its type, else the global
 * org's, else one level of super administrators. Strategies: `super_admin` (holders of the system
 * role SystemAdmin), `org_admin` (holders of OrgAdmin in the ticket's org), `super_org_admin`
 * (both), `custom_user` (the rule's users). A level that resolves to nobody active falls back to the
 * super administrators, so no ticket waits on an empty step.
 */
export const STRATEGIES = ['super_admin', 'org_admin', 'super_org_admin', 'custom_user'] as const;
export type Strategy = (typeof STRATEGIES)[number];
export interface FlowRule {
  level: number;
  strategy: Strategy;
  assignees: string[];
}
export interface Flow {
  id: string;
  type: string;
  approval_level: number;
  org_id: string;
  created_by: string;
  date_created: string;
  date_updated: string;
  rules: FlowRule[];
}

export async function loadFlows(db: Kysely<DB>, ids: string[]): Promise<Flow[]> {
  if (!ids.length) return [];
  const flows = await db.selectFrom('tickets_ticketflow').selectAll().where('id', 'in', ids).execute();
  const rules = await db.selectFrom('tickets_approvalrule').selectAll().where('flow_id', 'in', ids).execute();
  return flows.map((f) => ({
    ...f,
    approval_level: Number(f.approval_level),
    rules: rules
      .filter((r) => r.flow_id === f.id)
      .map((r) => ({
        level: Number(r.level),
        strategy: r.strategy as Strategy,
        assignees: JSON.parse(r.assignees) as string[],
      }))
      .sort((a, b) => a.level - b.level),
  }));
}

/** The flow that applies to a ticket of `type` in `orgId`. */
export async function flowFor(db: Kysely<DB>, orgId: string, type: string): Promise<Flow | undefined> {
  const rows = await db
    .selectFrom('tickets_ticketflow')
    .select(['id', 'org_id'])
    .where('type', '=', type)
    .where('org_id', 'in', [orgId, ROOT_ORG_ID])
    .execute();
  const row = rows.find((r) => r.org_id === orgId) ?? rows.find((r) => r.org_id === ROOT_ORG_ID);
  return row ? (await loadFlows(db, [row.id]))[0] : undefined;
}

async function roleHolders(db: Kysely<DB>, roleId: string, orgId?: string): Promise<string[]> {
  let q = db
    .selectFrom('rbac_rolebinding as b')
    .innerJoin('users_user as u', 'u.id', 'b.user_id')
    .select('u.id')
    .where('b.role_id', '=', roleId)
    .where('u.is_active', '=', true);
  q = orgId ? q.where('b.scope', '=', 'org').where('b.org_id', '=', orgId) : q.where('b.scope', '=', 'system');
  return (await q.execute()).map((r) => r.id);
}

async function activeUsers(db: Kysely<DB>, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('users_user')
    .select('id')
    .where('id', 'in', ids)
    .where('is_active', '=', true)
    .execute();
  return rows.map((r) => r.id);
}

export async function assigneesOf(db: Kysely<DB>, rule: FlowRule, orgId: string): Promise<string[]> {
  const out = new Set<string>();
  if (rule.strategy === 'super_admin' || rule.strategy === 'super_org_admin')
    (await roleHolders(db, BUILTIN_ROLE_IDS.SystemAdmin)).forEach((id) => out.add(id));
  if (rule.strategy === 'org_admin' || rule.strategy === 'super_org_admin')
    (await roleHolders(db, BUILTIN_ROLE_IDS.OrgAdmin, orgId)).forEach((id) => out.add(id));
  if (rule.strategy === 'custom_user') (await activeUsers(db, rule.assignees)).forEach((id) => out.add(id));
  if (!out.size) (await roleHolders(db, BUILTIN_ROLE_IDS.SystemAdmin)).forEach((id) => out.add(id));
  return [...out];
}

/** The assignees per level for a new ticket; `reviewers` (an ACL's recipients) make one level. */
export async function levelsFor(
  db: Kysely<DB>,
  orgId: string,
  type: TicketType,
  reviewers?: string[],
): Promise<string[][]> {
  if (reviewers) {
    const users = await activeUsers(db, reviewers);
    return [users.length ? users : await assigneesOf(db, { level: 1, strategy: 'super_admin', assignees: [] }, orgId)];
  }
  const flow = await flowFor(db, orgId, type);
  const rules = flow?.rules.length ? flow.rules : [{ level: 1, strategy: 'super_admin' as const, assignees: [] }];
  const out: string[][] = [];
  for (const rule of rules.slice(0, flow?.approval_level ?? 1)) out.push(await assigneesOf(db, rule, orgId));
  return out;
}
