import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { shape } from '../../resource/describe.ts';
import { AM, am } from './automationText.ts';
import type { AutomationType } from './automationExecutions.ts';

/**
 * Membership helpers of contract §4.11 (prefix `change-secret/` or `push-account/`): `<id>/assets/`
 * (GET, `?search=` on name and address), `<id>/asset/add/` and `<id>/asset/remove/` (PUT/PATCH
 * `{assets}`), `<id>/nodes/?action=add|remove` (PUT/PATCH `{nodes}`). Only the org's own plan, and
 * only the org's own assets and nodes, are touched; anything else is ignored as the original does.
 */
const MAX_IDS = 5000;

const PREFIX: Partial<Record<AutomationType, { path: string; model: string }>> = {
  change_secret: { path: 'change-secret', model: 'changesecretautomation' },
  push_account: { path: 'push-account', model: 'pushaccountautomation' },
};

async function automationOf(req: FastifyRequest, type: AutomationType): Promise<string> {
  const id = (req.params as { id: string }).id;
  const row = /^[0-9a-f-]{36}$/i.test(id)
    ? await req.db
        .selectFrom('accounts_automation')
        .select('id')
        .where('id', '=', id)
        .where('type', '=', type)
        .where('org_id', '=', req.org.id)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError(404, { detail: am(req.lang, 'not_found'), code: 'not_found' });
  return row.id;
}

function idsOf(req: FastifyRequest, field: 'assets' | 'nodes'): string[] {
  const v = (req.body as Record<string, unknown> | undefined)?.[field];
  if (!Array.isArray(v) || v.length > MAX_IDS || v.some((x) => typeof x !== 'string'))
    throw new ApiError(400, {
      [field]: [am(req.lang, field === 'assets' ? 'assets_list_required' : 'nodes_list_required')],
    });
  return [...new Set(v as string[])];
}

async function change(
  req: FastifyRequest,
  automation: string,
  table: 'accounts_automation_assets' | 'accounts_automation_nodes',
  target: 'assets_asset' | 'assets_node',
  column: 'asset_id' | 'node_id',
  ids: string[],
  action: 'add' | 'remove',
): Promise<void> {
  if (!ids.length) return;
  await req.db.transaction().execute(async (trx) => {
    if (action === 'remove') {
      await trx.deleteFrom(table).where('automation_id', '=', automation).where(column, 'in', ids).execute();
      return;
    }
    const own = (
      await trx.selectFrom(target).select('id').where('id', 'in', ids).where('org_id', '=', req.org.id).execute()
    ).map((r) => r.id);
    const have = new Set(
      (await trx.selectFrom(table).select(column).where('automation_id', '=', automation).execute()).map((r) =>
        String((r as Record<string, unknown>)[column]),
      ),
    );
    const fresh = own.filter((id) => !have.has(id));
    if (fresh.length)
      await trx
        .insertInto(table)
        .values(fresh.map((id) => ({ id: randomUUID(), automation_id: automation, [column]: id }) as never))
        .execute();
  });
}

export function registerMembershipRoutes(app: FastifyInstance, type: AutomationType): void {
  const p = PREFIX[type];
  if (!p) return;
  const base = `/api/v1/accounts/${p.path}/:id`;
  const view = {
    config: {
      perm: `accounts.view_${p.model}`,
      describe: shape('asset', { id: 'string', name: 'string', address: 'string' }),
    },
  };
  const edit = { config: { perm: `accounts.change_${p.model}` } };
  app.get(`${base}/assets/`, view, async (req) => {
    const id = await automationOf(req, type);
    const search = String((req.query as Record<string, unknown>).search ?? '').trim();
    let q = req.db
      .selectFrom('accounts_automation_assets as l')
      .innerJoin('assets_asset as a', 'a.id', 'l.asset_id')
      .select(['a.id', 'a.name', 'a.address'])
      .where('l.automation_id', '=', id)
      .orderBy('a.name');
    if (search)
      q = q.where((eb) => eb.or([eb('a.name', 'like', `%${search}%`), eb('a.address', 'like', `%${search}%`)]));
    return q.limit(MAX_IDS).execute();
  });
  for (const action of ['add', 'remove'] as const)
    for (const method of ['PUT', 'PATCH'] as const)
      app.route({
        method,
        url: `${base}/asset/${action}/`,
        ...edit,
        handler: async (req) => {
          const id = await automationOf(req, type);
          await change(req, id, 'accounts_automation_assets', 'assets_asset', 'asset_id', idsOf(req, 'assets'), action);
          return { msg: 'ok' };
        },
      });
  for (const method of ['PUT', 'PATCH'] as const)
    app.route({
      method,
      url: `${base}/nodes/`,
      ...edit,
      handler: async (req) => {
        const id = await automationOf(req, type);
        const action = String((req.query as Record<string, unknown>).action ?? '');
        if (action !== 'add' && action !== 'remove')
          throw new ApiError(400, { action: [am(req.lang, 'action_invalid')] });
        await change(req, id, 'accounts_automation_nodes', 'assets_node', 'node_id', idsOf(req, 'nodes'), action);
        return { msg: 'ok' };
      },
    });
  void AM;
}
