import { t } from '../../http/messages.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { am } from './assetMessages.ts';
import { probe, type ProbeResult } from './connectivity.ts';
import { startObjectTask, type ObjectStep } from '../ops/objectTask.ts';

/** The assets' connectivity test, a background task over the chosen assets (modules/ops/objectTask.ts). */
export interface AssetTestResult {
  asset: string;
  name: string;
  connectivity: string;
  protocols: ProbeResult[];
}

function testStep(app: FastifyInstance): ObjectStep<AssetTestResult> {
  const db = app.deps.database.db;
  return async (id, log) => {
    const a = await db
      .selectFrom('assets_asset')
      .select(['id', 'name', 'address'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!a) return undefined;
    const protocols = await db
      .selectFrom('assets_protocol')
      .select(['name', 'port'])
      .where('asset_id', '=', id)
      .execute();
    await log.write(`>>> ${a.name} (${a.address})`);
    const r = await probe(a.address, protocols);
    for (const p of r.results)
      await log.write(`    ${p.name}/${p.port}: ${p.ok ? 'ok' : `failed${p.error ? ` (${p.error})` : ''}`}`);
    await log.write(`    connectivity: ${r.connectivity}`);
    await db
      .updateTable('assets_asset')
      .set({ connectivity: r.connectivity, date_verified: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return { asset: a.id, name: a.name, connectivity: r.connectivity, protocols: r.results };
  };
}

export async function visibleAssetIds(req: FastifyRequest, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  let q = req.db.selectFrom('assets_asset').select('id').where('id', 'in', ids);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  const found = new Set((await q.execute()).map((r) => r.id));
  return [...new Set(ids)].filter((id) => found.has(id));
}

export async function start(req: FastifyRequest, ids: string[], action: unknown): Promise<{ task: string }> {
  if (action === 'refresh') throw new ApiError(400, { error: am(req.lang, 'not_supported') });
  if (action !== 'test')
    throw new ApiError(400, { action: [am(req.lang, 'action_invalid', { value: String(action) })] });
  return startObjectTask(req, 'test-assets-connectivity', ids, 'asset(s)', testStep(req.server));
}

export function registerAssetTaskRoutes(app: FastifyInstance): void {
  const perm = { config: { perm: 'assets.test_assetconnectivity' } };
  app.post<{ Params: { id: string } }>('/api/v1/assets/assets/:id/tasks/', perm, async (req) => {
    const ids = await visibleAssetIds(req, [req.params.id]);
    if (!ids.length) throw new ApiError(404, { detail: t(req.lang, 'not_found') });
    return start(req, ids, (req.body as { action?: unknown } | undefined)?.action);
  });
  app.post('/api/v1/assets/assets/tasks/', perm, async (req) => {
    const body = (req.body ?? {}) as { action?: unknown; assets?: unknown };
    const ids = Array.isArray(body.assets) ? await visibleAssetIds(req, body.assets.map(String)) : [];
    return start(req, ids, body.action);
  });
}
