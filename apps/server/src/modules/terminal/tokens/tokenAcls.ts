import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import type { SettingsStore } from '../../settings/store.ts';
import { decide, systemTimeZone, type AclRule } from '../../acls/matcher/rules.ts';
import { loadAclRules } from '../../acls/ruleLoader.ts';
import { loadAssets, loadUsers } from '../../acls/subjects.ts';

/**
 * The access-control rules a connection token meets (decided by the one matcher of
 * `modules/acls/matcher`): login-asset rules of the asset's org (reject / review / accept) and
 * connect-method rules (reject only, global) that take methods away from a user.
 */
export async function loginAssetDecision(
  db: Kysely<DB>,
  settings: SettingsStore,
  s: { userId: string; assetId: string; orgId: string; username: string; alias: string; ip: string },
): Promise<AclRule['action'] | undefined> {
  return (await loginAssetVerdict(db, settings, s))?.action;
}

/** The deciding rule: its action, id and recipients (who may approve a `review`). */
export async function loginAssetVerdict(
  db: Kysely<DB>,
  settings: SettingsStore,
  s: { userId: string; assetId: string; orgId: string; username: string; alias: string; ip: string },
): Promise<{ action: AclRule['action']; ruleId: string; reviewers: string[] } | undefined> {
  const rules = await loadAclRules(db, 'loginAsset', { orgId: s.orgId });
  if (!rules.length) return undefined;
  const user = (await loadUsers(db, { ids: [s.userId] }))[0] ?? { id: s.userId, attrs: {} };
  const asset = (await loadAssets(db, { ids: [s.assetId], orgId: s.orgId }))[0] ?? { id: s.assetId, attrs: {} };
  const zone = String((await settings.get('TIME_ZONE')) || systemTimeZone());
  const d = decide(rules, {
    user,
    asset,
    account: { username: s.username, alias: s.alias },
    ip: s.ip,
    at: new Date(),
    timeZone: zone,
  });
  return d && { action: d.action, ruleId: d.rule.id, reviewers: d.rule.reviewers ?? [] };
}

/** The connect methods that a reject rule takes away from the user now. */
export async function rejectedConnectMethods(
  db: Kysely<DB>,
  settings: SettingsStore,
  s: { userId: string; ip: string },
  methods: readonly string[],
): Promise<Set<string>> {
  const out = new Set<string>();
  const rules = await loadAclRules(db, 'connectMethod', { action: 'reject' });
  if (!rules.length) return out;
  const user = (await loadUsers(db, { ids: [s.userId] }))[0] ?? { id: s.userId, attrs: {} };
  const zone = String((await settings.get('TIME_ZONE')) || systemTimeZone());
  for (const m of methods)
    if (decide(rules, { user, ip: s.ip, at: new Date(), timeZone: zone, connectMethod: m })) out.add(m);
  return out;
}
