import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import type { DB } from '../../../platform/db/schema.ts';
import { externalUserRow, userRoleBinding, type NewExternalUser } from '../providers/externalUsers.ts';
import type { LdapProfile } from './directory.ts';

/**
 * Import of directory users (`ldap/users/import/`, the periodic sync): each created or updated
 * with source `ldap` and made a member of the chosen organisations. An entry that cannot be
 * imported (no email, a username or email of another user) is reported and the others go on.
 * Users are written a page at a time, each page one transaction of a few set-wise statements (the
 * rules of `upsertInTransaction`, providers/externalUsers.ts, applied to the page in memory): a
 * statement per user made 10,000 users some 60,000 round trips.
 */
const PAGE = 500;
/** Rows per INSERT: well under both databases' limits on bound parameters. */
const INSERT_ROWS = 200;

export interface ImportError {
  username: string;
  email: string;
  error: 'blank_email' | 'username_taken' | 'email_taken' | 'user_not_exist';
}

export interface ImportReport {
  imported: number;
  created: number;
  errors: ImportError[];
}

export async function importProfiles(
  db: Kysely<DB>,
  profiles: readonly LdapProfile[],
  orgIds: readonly string[],
  by: string,
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, created: 0, errors: [] };
  for (let i = 0; i < profiles.length; i += PAGE) {
    const page = profiles.slice(i, i + PAGE);
    await db.transaction().execute((trx) => importPage(trx, page, orgIds, by, report));
  }
  return report;
}

interface Known {
  id: string;
  source: string;
  name: string;
  email: string;
}

async function importPage(
  trx: Kysely<DB>,
  page: readonly LdapProfile[],
  orgIds: readonly string[],
  by: string,
  report: ImportReport,
): Promise<void> {
  const entries = page.map((p) => {
    const username = p.username.trim().slice(0, 128);
    return { p, username, email: p.email.trim().slice(0, 128), name: (p.name.trim() || username).slice(0, 128) };
  });
  const usernames = [...new Set(entries.map((e) => e.username))];
  const emails = [...new Set(entries.map((e) => e.email).filter(Boolean))];
  const byUsername = new Map<string, Known>();
  for (const r of await trx
    .selectFrom('users_user')
    .select(['id', 'username', 'source', 'name', 'email'])
    .where('username', 'in', usernames)
    .execute())
    byUsername.set(r.username, r);
  const byEmail = new Map<string, string>();
  if (emails.length)
    for (const r of await trx.selectFrom('users_user').select(['id', 'email']).where('email', 'in', emails).execute())
      byEmail.set(r.email, r.id);

  const now = new Date().toISOString();
  const created: NewExternalUser[] = [];
  const updates: { id: string; changes: { name?: string; email?: string } }[] = [];
  const members = new Set<string>();
  for (const { p, username, email, name } of entries) {
    const fail = (error: ImportError['error']) => report.errors.push({ username: p.username, email: p.email, error });
    const existing = byUsername.get(username);
    if (existing && existing.source !== 'ldap') {
      fail('username_taken');
      continue;
    }
    if (!email && !existing) {
      fail('blank_email');
      continue;
    }
    if (email && email !== existing?.email) {
      const other = byEmail.get(email);
      if (other && other !== existing?.id) {
        fail('email_taken');
        continue;
      }
    }
    if (existing) {
      // The directory's name and email win; a blank email in the directory keeps the one here.
      const changes = {
        ...(name !== existing.name ? { name } : {}),
        ...(email && email !== existing.email ? { email } : {}),
      };
      if (changes.email) {
        if (byEmail.get(existing.email) === existing.id) byEmail.delete(existing.email);
        byEmail.set(changes.email, existing.id);
      }
      if (Object.keys(changes).length) {
        updates.push({ id: existing.id, changes });
        Object.assign(existing, changes);
      }
    } else {
      const u = { id: randomUUID(), username, name, email, source: 'ldap', by, now };
      created.push(u);
      byUsername.set(username, { id: u.id, source: 'ldap', name, email });
      byEmail.set(email, u.id);
      report.created++;
    }
    members.add(byUsername.get(username)!.id);
    report.imported++;
  }

  for (let i = 0; i < created.length; i += INSERT_ROWS) {
    const chunk = created.slice(i, i + INSERT_ROWS);
    await trx.insertInto('users_user').values(chunk.map(externalUserRow)).execute();
    await trx.insertInto('rbac_rolebinding').values(chunk.map(userRoleBinding)).execute();
  }
  for (const { id, changes } of updates)
    await trx
      .updateTable('users_user')
      .set({ ...changes, updated_by: by, date_updated: now })
      .where('id', '=', id)
      .execute();
  await joinOrgs(trx, [...members], orgIds, by, now);
}

/** OrgUser in each organisation for every user of the page not a member of it yet. */
async function joinOrgs(trx: Kysely<DB>, userIds: string[], orgIds: readonly string[], by: string, now: string) {
  if (!userIds.length || !orgIds.length) return;
  const have = new Set(
    (
      await trx
        .selectFrom('rbac_rolebinding')
        .select(['user_id', 'org_id'])
        .where('user_id', 'in', userIds)
        .where('scope', '=', 'org')
        .where('org_id', 'in', [...orgIds])
        .execute()
    ).map((r) => `${r.user_id} ${r.org_id}`),
  );
  const rows = userIds.flatMap((user_id) =>
    orgIds
      .filter((org) => !have.has(`${user_id} ${org}`))
      .map((org) => ({
        id: randomUUID(),
        scope: 'org' as const,
        user_id,
        role_id: BUILTIN_ROLE_IDS.OrgUser,
        org_id: org,
        created_by: by,
        date_created: now,
      })),
  );
  for (let i = 0; i < rows.length; i += INSERT_ROWS)
    await trx
      .insertInto('rbac_rolebinding')
      .values(rows.slice(i, i + INSERT_ROWS))
      .execute();
}
