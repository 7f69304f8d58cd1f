import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso } from '../../platform/db/schema.ts';

/**
 * Makes a secret the account's own, sealed as it is: a new version with its history row (the
 * previous versions stay in the history, as every other write of the vault keeps them: the
 * Versions item of docs/accounts.md). One transaction, so the account and its history never disagree.
 */
export async function promoteSecret(
  db: Kysely<DB>,
  accountId: string,
  sealed: { secret_type: string; secret: string; passphrase: string | null; spec_info: string },
  who: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const a = await trx
      .selectFrom('accounts_account')
      .select(['version'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    if (!a) return;
    const version = Number(a.version) + 1;
    const now = nowIso();
    await trx
      .updateTable('accounts_account')
      .set({
        secret: sealed.secret,
        passphrase: sealed.passphrase,
        secret_type: sealed.secret_type,
        spec_info: sealed.spec_info,
        version,
        connectivity: 'ok',
        date_verified: now,
        date_updated: now,
        updated_by: who,
      })
      .where('id', '=', accountId)
      .execute();
    await trx
      .insertInto('accounts_accounthistory')
      .values({
        id: randomUUID(),
        account_id: accountId,
        version,
        secret_type: sealed.secret_type,
        secret: sealed.secret,
        passphrase: sealed.passphrase,
        history_date: now,
        history_user: who,
      })
      .execute();
  });
}
