import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import { groupPattern } from '../../acls/matcher/commandGroup.ts';
import { byPriority, ruleSelects } from '../../acls/matcher/rules.ts';
import { loadAclRules } from '../../acls/ruleLoader.ts';
import { loadAssets, loadUsers } from '../../acls/subjects.ts';

/**
 * The contract's `command_filter_acls` of a spent connection token: the active command filter
 * rules of the asset's org that select the token's user, asset and account (the one matcher,
 * `acls/matcher/rules.ts` `ruleSelects`; the component applies their command groups, times and
 * addresses to each command itself), in the order they decide: priority, then name.
 */
export interface TokenCommandFilter {
  id: string;
  name: string;
  command_groups: { id: string; name: string; type: string; content: string; ignore_case: boolean; pattern: string }[];
  action: string;
  reviewers: { id: string; name: string }[];
  priority: number;
  is_active: boolean;
}

export async function tokenCommandFilters(
  db: Kysely<DB>,
  s: { userId: string; assetId: string; orgId: string; username: string; alias: string },
): Promise<TokenCommandFilter[]> {
  const rules = await loadAclRules(db, 'commandFilter', { orgId: s.orgId });
  if (!rules.length) return [];
  const user = (await loadUsers(db, { ids: [s.userId] }))[0] ?? { id: s.userId, attrs: {} };
  const asset = (await loadAssets(db, { ids: [s.assetId], orgId: s.orgId }))[0] ?? { id: s.assetId, attrs: {} };
  const account = { username: s.username, alias: s.alias };
  const chosen = byPriority(rules).filter((r) => ruleSelects(r, { user, asset, account }));
  const reviewerIds = [...new Set(chosen.flatMap((r) => r.reviewers))];
  const names = new Map(
    reviewerIds.length
      ? (await db.selectFrom('users_user').select(['id', 'name']).where('id', 'in', reviewerIds).execute()).map(
          (u) => [u.id, u.name] as const,
        )
      : [],
  );
  return chosen.map((r) => ({
    id: r.id,
    name: r.name,
    command_groups: (r.command_groups ?? []).map((g) => ({
      id: g.id ?? '',
      name: g.name ?? '',
      type: g.type,
      content: g.content,
      ignore_case: g.ignore_case,
      pattern: groupPattern(g),
    })),
    action: r.action,
    reviewers: r.reviewers.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! })),
    priority: r.priority,
    is_active: r.is_active,
  }));
}
