import type { Kysely } from 'kysely';
import type { DB } from '../../../platform/db/schema.ts';
import { upsertInTransaction } from '../providers/externalUsers.ts';
import type { LdapProfile } from './directory.ts';

/**
 * Import of directory users (`ldap/users/import/`, the periodic sync): each created or updated
 * with source `ldap` and made a member of the chosen organisations. An entry that cannot be
 * imported (no email, a username or email of another user) is reported and the others go on.
 * Users are written a page at a time, each page one transaction.
 */
const PAGE = 500;

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
    await db.transaction().execute(async (trx) => {
      for (const p of page) {
        const r = await upsertInTransaction(trx, p, 'ldap', { create: true, orgIds, by });
        if (!r.ok) report.errors.push({ username: p.username, email: p.email, error: r.error });
        else {
          report.imported++;
          if (r.created) report.created++;
        }
      }
    });
  }
  return report;
}
