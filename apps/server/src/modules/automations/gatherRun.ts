import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { nowIso } from '../../platform/db/schema.ts';
import type { ExecutionRow } from '../ops/engine/engine.ts';
import type { AutomationVersion } from './automationExecutions.ts';
import { protocolFor } from './hostProtocols.ts';

/**
 * Gather on one asset: the users of the host's account database with their last login (getent
 * passwd and lastlog; login shells only), or the database's users, kept in
 * `accounts_gatheredaccount` (found ones upserted, the others marked no longer present); with
 * `is_sync_account` the ones the vault lacks are added to it (`source` collected, no secret).
 */
export async function gatherAsset(
  app: FastifyInstance,
  lang: Language,
  exec: ExecutionRow,
  v: AutomationVersion,
  asset: { id: string; name: string; address: string },
  log: (line: string) => void,
): Promise<boolean> {
  const db = app.deps.database.db;
  const label = `[${asset.name}(${asset.address})]`;
  let found: Awaited<ReturnType<Awaited<ReturnType<typeof protocolFor>>['accounts']>>;
  try {
    found = await (await protocolFor(app, lang, asset.id)).accounts();
  } catch (e) {
    log(`${label} failed: ${(e as Error).message}`);
    return false;
  }
  const now = nowIso();
  const names = found.map((f) => f.username);
  log(`${label} found ${found.length}: ${names.join(', ')}`);
  await db.transaction().execute(async (trx) => {
    for (const f of found)
      await trx
        .insertInto('accounts_gatheredaccount')
        .values({
          id: randomUUID(),
          asset_id: asset.id,
          username: f.username,
          address_last_login: f.address,
          date_last_login: f.last_login,
          present: true,
          date_created: now,
          date_updated: now,
          org_id: exec.org_id,
        })
        .onConflict((oc) =>
          oc.columns(['asset_id', 'username']).doUpdateSet({
            present: true,
            date_last_login: f.last_login,
            address_last_login: f.address,
            date_updated: now,
          }),
        )
        .execute();
    let gone = trx
      .updateTable('accounts_gatheredaccount')
      .set({ present: false, date_updated: now })
      .where('asset_id', '=', asset.id);
    if (names.length) gone = gone.where('username', 'not in', names);
    await gone.execute();
    if (!v.is_sync_account) return;
    const known = new Set(
      (await trx.selectFrom('accounts_account').select('username').where('asset_id', '=', asset.id).execute()).map(
        (a) => a.username,
      ),
    );
    for (const username of names.filter((n) => !known.has(n))) {
      await trx
        .insertInto('accounts_account')
        .values({
          id: randomUUID(),
          name: username,
          username,
          secret_type: 'password',
          secret: null,
          passphrase: null,
          spec_info: '{}',
          privileged: false,
          is_active: true,
          asset_id: asset.id,
          su_from_id: null,
          version: 0,
          source: 'collected',
          source_id: null,
          connectivity: '-',
          date_verified: null,
          params: '{}',
          comment: '',
          org_id: exec.org_id,
          created_by: exec.created_by,
          updated_by: exec.created_by,
          date_created: now,
          date_updated: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      log(`${label} ${username}: added to the vault`);
    }
  });
  return true;
}
