import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { f } from '../../resource/fields.ts';
import { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { actorOf } from '../../resource/audit.ts';
import { nowIso, toBool } from '../../platform/db/schema.ts';
import { AM, am } from './automationText.ts';

/**
 * Gathered accounts (`gathered-accounts/`, contract §4.10): what the last gather found on each
 * asset of the org, with `vault` saying how it stands against the vault (`new`: the vault has no
 * account of that username on the asset; `same`: it has one; `missing` is a vault account the
 * asset no longer has: `present` false). `sync-accounts/` adds the chosen ones to the vault
 * (source `collected`, no secret), in one transaction.
 */
const G = 'accounts_gatheredaccount';
const MAX_IDS = 5000;

const gatheredDef: ResourceDef = {
  model: 'gatheredaccount',
  app: 'accounts',
  url: '/api/v1/accounts/gathered-accounts/',
  table: G,
  label: AM.model_gather_accounts,
  orgScoped: true,
  defaultOrder: ['username'],
  fields: {
    id: f.id(),
    asset: f.computed('json', AM.f_asset, (r) => ({ id: r.asset_id, name: r._asset ?? '' })),
    username: f.string(AM.f_username, { readOnly: true, search: true, filter: true, order: true }),
    present: f.bool(AM.f_present, { readOnly: true, filter: true }),
    vault: f.computed('string', AM.f_vault, (r) => (r._known ? 'same' : 'new')),
    address_last_login: f.string(AM.f_address_last_login, { readOnly: true }),
    date_last_login: f.datetime(AM.f_date_last_login, { readOnly: true, order: true }),
    date_updated: f.dateUpdated(),
  },
  extraFilters: {
    asset_id: (q, value) => q.where(sql.ref(`${G}.asset_id`), '=', value),
  },
  async prepare(rows, ctx) {
    const assets = [...new Set(rows.map((r) => String(r.asset_id)))];
    if (!assets.length) return;
    const names = await ctx.db.selectFrom('assets_asset').select(['id', 'name']).where('id', 'in', assets).execute();
    const by = new Map(names.map((n) => [n.id, n.name]));
    const known = await ctx.db
      .selectFrom('accounts_account')
      .select(['asset_id', 'username'])
      .where('asset_id', 'in', assets)
      .execute();
    const k = new Set(known.map((a) => `${a.asset_id}\n${a.username}`));
    for (const r of rows) {
      r._asset = by.get(String(r.asset_id)) ?? '';
      r._known = k.has(`${r.asset_id}\n${r.username}`);
    }
  },
};

export function registerGatheredRoutes(app: FastifyInstance): void {
  registerReadOnly(app, gatheredDef, 'accounts.view_gatheredaccount');
  app.post(
    '/api/v1/accounts/gathered-accounts/sync-accounts/',
    { config: { perm: 'assets.add_gatheredaccount' } },
    async (req, reply) => {
      const ids = (req.body as { gathered_account_ids?: unknown } | undefined)?.gathered_account_ids;
      if (!Array.isArray(ids) || !ids.length || ids.length > MAX_IDS || ids.some((x) => typeof x !== 'string'))
        throw new ApiError(400, { gathered_account_ids: [am(req.lang, 'accounts_required')] });
      const who = actorOf(req);
      const now = nowIso();
      await req.db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom(G)
          .selectAll()
          .where('id', 'in', ids as string[])
          .where('org_id', '=', req.org.id)
          .execute();
        for (const g of found) {
          if (!toBool(g.present)) continue;
          await trx
            .insertInto('accounts_account')
            .values({
              id: randomUUID(),
              name: g.username,
              username: g.username,
              secret_type: 'password',
              secret: null,
              passphrase: null,
              spec_info: '{}',
              privileged: false,
              is_active: true,
              asset_id: g.asset_id,
              su_from_id: null,
              version: 0,
              source: 'collected',
              source_id: null,
              connectivity: '-',
              date_verified: null,
              params: '{}',
              comment: '',
              org_id: g.org_id,
              created_by: who,
              updated_by: who,
              date_created: now,
              date_updated: now,
            })
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
      });
      return reply.code(201).send({ msg: 'ok' });
    },
  );
}
