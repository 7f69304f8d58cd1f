import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

/**
 * The ids of an organisation's members, as a subquery: a user is a member when it holds an org-scoped
 * role binding in that org. Use it in `where('…user_id', 'in', orgMemberIds(db, orgId))`.
 */
export function orgMemberIds(db: Kysely<DB>, orgId: string) {
  return db.selectFrom('rbac_rolebinding').select('user_id').where('scope', '=', 'org').where('org_id', '=', orgId);
}
