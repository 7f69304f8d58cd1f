import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { BUILTIN_ROLE_IDS, ROOT_ORG_ID, SYSTEM_ORG_ID } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { defaultDateExpired } from '../../bootstrap/seed.ts';

/**
 * Users that an identity provider vouches for (source `ldap`…): found by username and updated from
 * the directory, or created without a local password, holding the system role User and OrgUser in
 * the given organisations (AUTH_LDAP_SYNC_ORG_IDS, or the orgs chosen for an import).
 */
export interface ExternalProfile {
  username: string;
  name: string;
  email: string;
}

export type UpsertResult =
  | { ok: true; id: string; created: boolean }
  | { ok: false; error: 'blank_email' | 'username_taken' | 'email_taken' | 'user_not_exist' };

export interface UpsertOptions {
  /** Create a user that does not exist (false: ONLY_ALLOW_EXIST_USER_AUTH). */
  create: boolean;
  /** Refresh an existing user's name and email from the profile (absent: yes). */
  update?: boolean;
  orgIds: readonly string[];
  by: string;
}

/** One user in its own transaction. */
export function upsertExternalUser(
  db: Kysely<DB>,
  profile: ExternalProfile,
  source: string,
  opts: UpsertOptions,
): Promise<UpsertResult> {
  return db.transaction().execute((trx) => upsertInTransaction(trx, profile, source, opts));
}

/** One user inside the caller's transaction (an import writes a page of users in one). */
export async function upsertInTransaction(
  trx: Kysely<DB>,
  profile: ExternalProfile,
  source: string,
  opts: UpsertOptions,
): Promise<UpsertResult> {
  const username = profile.username.trim().slice(0, 128);
  const email = profile.email.trim().slice(0, 128);
  const name = (profile.name.trim() || username).slice(0, 128);
  const existing = await trx
    .selectFrom('users_user')
    .select(['id', 'source', 'name', 'email'])
    .where('username', '=', username)
    .executeTakeFirst();
  if (existing && existing.source !== source) return { ok: false, error: 'username_taken' };
  if (!existing && !opts.create) return { ok: false, error: 'user_not_exist' };
  if (!email && !existing) return { ok: false, error: 'blank_email' };
  if (email && email !== existing?.email && opts.update !== false) {
    const other = await trx.selectFrom('users_user').select('id').where('email', '=', email).executeTakeFirst();
    if (other && other.id !== existing?.id) return { ok: false, error: 'email_taken' };
  }
  const now = new Date().toISOString();
  const id = existing?.id ?? randomUUID();
  if (existing && opts.update !== false) {
    // The directory's name and email win; a blank email in the directory keeps the one here.
    const changes = {
      ...(name !== existing.name ? { name } : {}),
      ...(email && email !== existing.email ? { email } : {}),
    };
    if (Object.keys(changes).length > 0)
      await trx
        .updateTable('users_user')
        .set({ ...changes, updated_by: opts.by, date_updated: now })
        .where('id', '=', id)
        .execute();
  } else if (!existing) await insertUser(trx, { id, username, name, email, source, by: opts.by, now });
  await joinOrgs(trx, id, opts.orgIds, opts.by, now);
  return { ok: true, id, created: !existing };
}

/** A user without a local password, holding the system role User. */
async function insertUser(trx: Kysely<DB>, u: NewExternalUser): Promise<void> {
  await trx.insertInto('users_user').values(externalUserRow(u)).execute();
  await trx.insertInto('rbac_rolebinding').values(userRoleBinding(u)).execute();
}

export interface NewExternalUser {
  id: string;
  username: string;
  name: string;
  email: string;
  source: string;
  by: string;
  now: string;
}

/** The `users_user` row of a user a provider vouches for: no local password. */
export function externalUserRow(u: NewExternalUser) {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    email: u.email,
    password: '',
    is_active: true,
    is_first_login: true,
    need_update_password: false,
    is_service_account: false,
    source: u.source,
    mfa_level: 0,
    phone: '',
    wechat: '',
    comment: '',
    date_expired: defaultDateExpired(),
    date_joined: u.now,
    last_login: null,
    date_password_last_updated: u.now,
    created_by: u.by,
    updated_by: u.by,
    date_updated: u.now,
  };
}

/** Its binding to the system role User. */
export function userRoleBinding(u: NewExternalUser) {
  return {
    id: randomUUID(),
    scope: 'system' as const,
    user_id: u.id,
    role_id: BUILTIN_ROLE_IDS.User,
    org_id: null,
    created_by: u.by,
    date_created: u.now,
  };
}

/** OrgUser in each organisation the user is not a member of yet. */
async function joinOrgs(db: Kysely<DB>, userId: string, orgIds: readonly string[], by: string, now: string) {
  if (orgIds.length === 0) return;
  const member = new Set(
    (
      await db
        .selectFrom('rbac_rolebinding')
        .select('org_id')
        .where('user_id', '=', userId)
        .where('scope', '=', 'org')
        .where('org_id', 'in', [...orgIds])
        .execute()
    ).map((r) => r.org_id),
  );
  const missing = orgIds.filter((o) => !member.has(o));
  if (missing.length === 0) return;
  await db
    .insertInto('rbac_rolebinding')
    .values(
      missing.map((org) => ({
        id: randomUUID(),
        scope: 'org' as const,
        user_id: userId,
        role_id: BUILTIN_ROLE_IDS.OrgUser,
        org_id: org,
        created_by: by,
        date_created: now,
      })),
    )
    .execute();
}

/**
 * The ids among `ids` of organisations users can be members of: existing ones, never the global
 * view nor the system-setting org (which hold no members).
 */
export async function existingOrgs(db: Kysely<DB>, ids: readonly string[]): Promise<string[]> {
  ids = ids.filter((id) => id !== ROOT_ORG_ID && id !== SYSTEM_ORG_ID);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('orgs_organization')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  const found = new Set(rows.map((r) => r.id));
  return ids.filter((i) => found.has(i));
}
