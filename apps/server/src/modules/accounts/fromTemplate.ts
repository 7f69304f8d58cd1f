import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso, toBool } from '../../platform/db/schema.ts';

/**
 * An account made on an asset from an account template (a permission's `%<template>`, a cloud sync
 * strategy's `account` action): the template's username, secret as sealed, passphrase, privileged,
 * active, `params` its `push_params`, `su_from` the asset's account of the template's `su_from`
 * username where the platform can switch; named after the template (then `name(username)`, then
 * `username-<id>`, whichever the asset does not hold). Nothing is made when the asset already has an
 * account of that username; its first secret goes to the history as version 1.
 */
export type AccountTemplateRow = Awaited<ReturnType<typeof accountTemplates>>[number];

/** Templates of the organisation by id, by name. */
export function accountTemplates(db: Kysely<DB>, orgId: string, ids: readonly string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db
    .selectFrom('accounts_accounttemplate')
    .selectAll()
    .where('id', 'in', [...ids])
    .where('org_id', '=', orgId)
    .orderBy('name')
    .execute();
}

function parseObject(s: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(s ?? '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Answers the new account's id, or undefined when the asset already had one of that username. */
export async function createFromTemplate(
  db: Kysely<DB>,
  tpl: AccountTemplateRow,
  asset: { id: string; platform_id: number },
  o: { orgId: string; by: string; suFrom?: AccountTemplateRow },
): Promise<string | undefined> {
  const existing = await db
    .selectFrom('accounts_account')
    .select(['name', 'username'])
    .where('asset_id', '=', asset.id)
    .execute();
  if (existing.some((e) => e.username === tpl.username)) return undefined;
  const names = new Set(existing.map((e) => e.name));
  const name = [tpl.name, `${tpl.name}(${tpl.username})`, `${tpl.username}-${tpl.id.slice(0, 8)}`].find(
    (n) => !names.has(n),
  )!;
  const platform = await db
    .selectFrom('assets_platform')
    .select('su_enabled')
    .where('id', '=', asset.platform_id)
    .executeTakeFirst();
  const suFrom =
    o.suFrom && platform && toBool(platform.su_enabled)
      ? await db
          .selectFrom('accounts_account')
          .select('id')
          .where('asset_id', '=', asset.id)
          .where('username', '=', o.suFrom.username)
          .where('secret_type', '=', o.suFrom.secret_type)
          .executeTakeFirst()
      : undefined;
  const id = randomUUID();
  const now = nowIso();
  const version = tpl.secret ? 1 : 0;
  const inserted = await db
    .insertInto('accounts_account')
    .values({
      id,
      name,
      username: tpl.username,
      secret_type: tpl.secret_type,
      secret: tpl.secret,
      passphrase: tpl.passphrase,
      spec_info: tpl.spec_info,
      privileged: toBool(tpl.privileged),
      is_active: toBool(tpl.is_active),
      asset_id: asset.id,
      su_from_id: suFrom?.id ?? null,
      version,
      source: 'template',
      source_id: tpl.id,
      connectivity: '-',
      date_verified: null,
      params: JSON.stringify(parseObject(tpl.push_params)),
      comment: '',
      org_id: o.orgId,
      created_by: o.by,
      updated_by: o.by,
      date_created: now,
      date_updated: now,
    })
    .execute()
    .then(
      () => true,
      // Another run (a permission saved twice at once, two syncs) made it first.
      () => false,
    );
  if (!inserted) return undefined;
  if (version)
    await db
      .insertInto('accounts_accounthistory')
      .values({
        id: randomUUID(),
        account_id: id,
        version,
        secret_type: tpl.secret_type,
        secret: tpl.secret,
        passphrase: tpl.passphrase,
        history_date: now,
        history_user: o.by,
      })
      .execute();
  return id;
}
