import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import { toBool } from '../../../platform/db/schema.ts';
import type { SettingsStore } from '../../settings/store.ts';
import { decide, systemTimeZone, type AclRule } from '../../acls/matcher/rules.ts';
import { loadAssets, loadUsers } from '../../acls/subjects.ts';

/**
 * The access-control rules a connection token meets (decided by the one matcher of
 * `modules/acls/matcher`): login-asset rules of the asset's org (reject / review / accept) and
 * connect-method rules (reject only, global) that take methods away from a user.
 */
const parse = <T>(s: string, fallback: T): T => {
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

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
  const rows = await db
    .selectFrom('acls_loginassetacl')
    .selectAll()
    .where('org_id', '=', s.orgId)
    .where('is_active', '=', true)
    .execute();
  if (!rows.length) return undefined;
  const reviewers = await db
    .selectFrom('acls_loginassetacl_reviewers')
    .select(['acl_id', 'user_id'])
    .where(
      'acl_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const rules = rows.map((r) => ({
    id: r.id,
    name: r.name,
    priority: Number(r.priority),
    action: r.action as AclRule['action'],
    is_active: toBool(r.is_active),
    users: parse<AclRule['users']>(r.users, { type: 'ids', ids: [] }),
    assets: parse<AclRule['assets']>(r.assets, { type: 'ids', ids: [] }),
    accounts: parse<string[]>(r.accounts, []),
    rules: parse<AclRule['rules']>(r.rules, undefined),
    reviewers: reviewers.filter((x) => x.acl_id === r.id).map((x) => x.user_id),
  }));
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
  return d && { action: d.action, ruleId: d.rule.id, reviewers: d.rule.reviewers };
}

/** The connect methods that a reject rule takes away from the user now. */
export async function rejectedConnectMethods(
  db: Kysely<DB>,
  settings: SettingsStore,
  s: { userId: string; ip: string },
  methods: readonly string[],
): Promise<Set<string>> {
  const rows = await db
    .selectFrom('acls_connectmethodacl')
    .selectAll()
    .where('is_active', '=', true)
    .where('action', '=', 'reject')
    .execute();
  const out = new Set<string>();
  if (!rows.length) return out;
  const rules = rows.map((r) => ({
    id: r.id,
    name: r.name,
    priority: Number(r.priority),
    action: r.action as AclRule['action'],
    is_active: true,
    users: parse<AclRule['users']>(r.users, { type: 'ids', ids: [] }),
    connect_methods: parse<string[]>(r.connect_methods, []),
  }));
  const user = (await loadUsers(db, { ids: [s.userId] }))[0] ?? { id: s.userId, attrs: {} };
  const zone = String((await settings.get('TIME_ZONE')) || systemTimeZone());
  for (const m of methods)
    if (decide(rules, { user, ip: s.ip, at: new Date(), timeZone: zone, connectMethod: m })) out.add(m);
  return out;
}
