import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import type { AnyQuery, ResourceCtx } from '../../resource/types.ts';

/**
 * Logs kept per user rather than per org (password changes, web sign-ins): outside the global org
 * a list shows only the rows of the current org's members.
 */
export function membersOnly(column: string) {
  return (q: AnyQuery, ctx: ResourceCtx): AnyQuery =>
    ctx.req.org.id === ROOT_ORG_ID ? q : q.where(sql.ref(column), 'in', orgMemberIds(ctx.db, ctx.req.org.id));
}
