import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { recordOperation } from '../../resource/audit.ts';
import { bodyIds } from '../../resource/query.ts';
import { findVisible } from '../../resource/routes.ts';
import { serializeRows } from '../../resource/serialize.ts';
import { validateObject, type FieldErrors } from '../../resource/validate.ts';
import { createObject, inTransaction } from '../../resource/write.ts';
import type { ResourceCtx, Row } from '../../resource/types.ts';
import { assetsUnder } from '../assets/assetParsers.ts';
import { acm } from './accountMessages.ts';
import { loadPlatforms, resolveDuplicate } from './accountHooks.ts';
import { accountResource } from './accountResource.ts';
import { pick } from '../../resource/describe.ts';

/**
 * Account actions beside the resource routes: `bulk/` over many assets with a
 * result per asset, `su-from-accounts/`, `username-suggestions/` and `clear-secret/`.
 */
const URL = '/api/v1/accounts/accounts/';

interface BulkResult {
  asset: string;
  state: 'created' | 'updated' | 'skipped' | 'error';
  error?: string;
  changed?: boolean;
}

const flatten = (errors: FieldErrors) =>
  Object.entries(errors)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : JSON.stringify(v)}`)
    .join('; ');

async function orgAssets(req: FastifyRequest, ids: string[]): Promise<Row[]> {
  if (!ids.length) return [];
  let q = req.db.selectFrom('assets_asset').select(['id', 'name', 'address', 'org_id']).where('id', 'in', ids);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  return q.execute();
}

const idList = (req: FastifyRequest, body: Row, field: string): string[] | undefined =>
  bodyIds({ req, db: req.db }, field, body[field]);

/** One account on each asset; `on_invalid` error makes any failure refuse the whole request. */
async function bulkCreate(req: FastifyRequest): Promise<BulkResult[]> {
  const body = (req.body ?? {}) as Row;
  const lang = req.lang;
  const ids = idList(req, body, 'assets');
  if (!ids?.length) throw new ApiError(400, { assets: [acm(lang, 'assets_required')] });
  const assets = await orgAssets(req, ids);
  const missing = ids.find((id) => !assets.some((a) => a.id === id));
  if (missing) throw new ApiError(400, { assets: [acm(lang, 'asset_not_found', { id: missing })] });
  const policy = body.on_invalid ?? 'skip';
  const { assets: _a, su_from_username: suName, ...common } = body;
  void _a;
  return inTransaction({ req, db: req.db }, async (ctx) => {
    const results: BulkResult[] = [];
    for (const asset of ids.map((id) => assets.find((a) => a.id === id)!)) {
      const label = `${asset.name}(${asset.address})`;
      const item: Row = { ...common, on_invalid: policy, asset: asset.id };
      if (typeof suName === 'string' && suName) {
        const su = await ctx.db
          .selectFrom('accounts_account')
          .select('id')
          .where('asset_id', '=', asset.id)
          .where('username', '=', suName)
          .executeTakeFirst();
        if (su) item.su_from = su.id;
      }
      const r = await validateObject(accountResource, ctx, item, 'create');
      if (!r.ok) {
        results.push({ asset: label, state: 'error', error: flatten(r.errors) });
        continue;
      }
      const dup = await resolveDuplicate(accountResource, r.data, ctx);
      if (dup) results.push({ asset: label, state: dup.state, changed: dup.state === 'updated' });
      else {
        await createObject(accountResource, ctx, r.data);
        results.push({ asset: label, state: 'created', changed: true });
      }
    }
    if (policy === 'error' && results.some((r) => r.state === 'error')) throw new ApiError(400, results);
    return results;
  });
}

/** Accounts of the same asset that another account may switch from (none where the platform has no su). */
async function suFromAccounts(req: FastifyRequest) {
  const q = req.query as { account?: string; asset?: string };
  const ctx: ResourceCtx = { req, db: req.db };
  let assetId = q.asset;
  let self: string | undefined;
  if (q.account) {
    const a = await findVisible(accountResource, ctx, q.account);
    assetId = a.asset_id;
    self = a.id;
  }
  if (!assetId) return [];
  const visible = await orgAssets(req, [assetId]);
  if (!visible.length) return [];
  if (!(await loadPlatforms(ctx, [assetId])).get(assetId)?.su_enabled) return [];
  let rows = req.db.selectFrom('accounts_account').selectAll().where('asset_id', '=', assetId);
  if (self) rows = rows.where('id', '!=', self);
  return serializeRows(accountResource, ctx, (await rows.orderBy('name').execute()) as Row[], [
    'id',
    'name',
    'username',
    'secret_type',
    'privileged',
  ]);
}

/** Up to ten usernames already used on the given assets and nodes (or the org), matching what was typed. */
async function usernameSuggestions(req: FastifyRequest): Promise<string[]> {
  const body = (req.body ?? {}) as Row;
  const ctx: ResourceCtx = { req, db: req.db };
  let q = req.db.selectFrom('accounts_account').select('username').distinct();
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  const assetIds = idList(req, body, 'assets') ?? [];
  const nodeIds = idList(req, body, 'nodes') ?? [];
  if (assetIds.length || nodeIds.length) {
    const keys = nodeIds.length
      ? (await req.db.selectFrom('assets_node').select('key').where('id', 'in', nodeIds).execute()).map((n) => n.key)
      : [];
    q = q.where((eb) =>
      eb.or([
        ...(assetIds.length ? [eb('asset_id', 'in', assetIds)] : []),
        ...keys.map((k) => eb('asset_id', 'in', assetsUnder(ctx, k, false))),
      ]),
    );
  }
  const typed = typeof body.username === 'string' ? body.username.trim() : '';
  if (typed) {
    const pattern = `%${typed.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = req.server.deps.database.dialect === 'postgres' ? sql.raw('ILIKE') : sql.raw('LIKE');
    q = q.where(sql<boolean>`username ${op} ${pattern} ESCAPE '\\'`);
  }
  return (await q.orderBy('username').limit(10).execute()).map((r) => r.username);
}

/** Removes the secrets of the given accounts; the removed version stays in their history. */
async function clearSecret(req: FastifyRequest) {
  const ids = idList(req, (req.body ?? {}) as Row, 'account_ids');
  if (!ids?.length) throw new ApiError(400, { account_ids: [acm(req.lang, 'account_ids_required')] });
  let q = req.db.selectFrom('accounts_account').select(['id', 'version', 'name', 'org_id']).where('id', 'in', ids);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  const rows = await q.execute();
  const now = new Date().toISOString();
  await inTransaction({ req, db: req.db }, async (ctx) => {
    for (const r of rows)
      await ctx.db
        .updateTable('accounts_account')
        .set({ secret: null, passphrase: null, spec_info: '{}', version: Number(r.version) + 1, date_updated: now })
        .where('id', '=', r.id)
        .execute();
    // Audited like any write: the operate log shows the secret as changed (masked).
    for (const r of rows)
      await recordOperation(ctx.db, req, {
        action: 'update',
        def: accountResource,
        resourceId: r.id,
        resourceName: r.name,
        orgId: r.org_id,
        diff: [{ field: 'secret', before: '******', after: '' }],
      });
  });
  return { msg: 'ok', count: rows.length };
}

export function registerAccountActionRoutes(app: FastifyInstance): void {
  app.post(`${URL}bulk/`, { config: { perm: 'accounts.add_account' } }, bulkCreate);
  app.get(
    `${URL}su-from-accounts/`,
    {
      config: {
        perm: 'accounts.view_account',
        describe: pick(accountResource, ['id', 'name', 'username', 'secret_type', 'privileged']),
      },
    },
    suFromAccounts,
  );
  app.post(`${URL}username-suggestions/`, { config: { perm: 'accounts.view_account' } }, usernameSuggestions);
  app.patch(`${URL}clear-secret/`, { config: { perm: 'accounts.change_account' } }, clearSecret);
}
