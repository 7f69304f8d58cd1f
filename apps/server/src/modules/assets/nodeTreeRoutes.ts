import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { toBool } from '../../platform/db/schema.ts';
import { containsCi } from '../../resource/query.ts';
import { rt } from '../../resource/messages.ts';
import { serializeRows } from '../../resource/serialize.ts';
import type { ResourceCtx, Row } from '../../resource/types.ts';
import { am } from './assetMessages.ts';
import { assetsUnder } from './assetParsers.ts';
import { assetResource, ASSET_KINDS } from './assetResource.ts';
import { nodeResource, fullValues } from './nodeResource.ts';
import {
  ancestorKeys,
  childNamed,
  createChild,
  inSubtree,
  keysOfNodes,
  moveNodes,
  nodeDb,
  orgRoot,
  recount,
  type NodeRow,
} from './nodeStore.ts';
import { treeNodes } from '../../resource/describe.ts';
import { queryFlag } from '../../http/queryString.ts';

/** The node tree endpoints of the JumpServer API. */

type Q = Record<string, string | undefined>;
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });
const allAssets = assetResource(ASSET_KINDS[0]!);

function visibleNodes(ctx: ResourceCtx) {
  const q = ctx.db.selectFrom('assets_node').selectAll();
  return ctx.req.org.id === ROOT_ORG_ID ? q : q.where('org_id', '=', ctx.req.org.id);
}

async function nodeByRef(ctx: ResourceCtx, ref: string | undefined): Promise<NodeRow | undefined> {
  if (!ref) return undefined;
  const n = await visibleNodes(ctx)
    .where((eb) => eb.or([eb('id', '=', ref), eb('key', '=', ref)]))
    .executeTakeFirst();
  if (!n) throw new ApiError(404, { detail: rt(ctx.req.lang, 'not_found', { model: 'Node' }) });
  return n;
}

/** The node a children request is about: `<id>` in the path, `?id=`/`?key=`, else the org root (undefined in ROOT). */
async function subject(req: FastifyRequest): Promise<NodeRow | undefined> {
  const ctx = ctxOf(req);
  const q = req.query as Q;
  const ref = (req.params as { id?: string }).id ?? q.id ?? q.key;
  if (ref) return nodeByRef(ctx, ref);
  return req.org.id === ROOT_ORG_ID ? undefined : orgRoot(nodeDb(ctx), req.org.id);
}

async function children(ctx: ResourceCtx, node: NodeRow | undefined, all: boolean): Promise<NodeRow[]> {
  if (!node) return visibleNodes(ctx).where('parent_key', '=', '').orderBy('key').execute();
  const q = visibleNodes(ctx).orderBy('parent_key').orderBy('value');
  return all
    ? q
        .where('key', '!=', node.key)
        .where(inSubtree(nodeDb(ctx), 'key', node.key))
        .execute()
    : q.where('parent_key', '=', node.key).execute();
}

function nodeJson(n: NodeRow, open: boolean): Row {
  const name = `${n.value} (${Number(n.assets_amount)})`;
  return {
    id: n.key,
    name,
    title: name,
    pId: n.parent_key,
    isParent: true,
    open,
    meta: { type: 'node', data: { id: n.id, key: n.key, value: n.value } },
  };
}

async function assetNodesJson(ctx: ResourceCtx, key: string, search: string | undefined): Promise<Row[]> {
  let q = ctx.db
    .selectFrom('assets_asset as a')
    .innerJoin('assets_platform as p', 'p.id', 'a.platform_id')
    .innerJoin('assets_asset_nodes as an', 'an.asset_id', 'a.id')
    .innerJoin('assets_node as n', 'n.id', 'an.node_id')
    .select(['a.id', 'a.name', 'a.address', 'a.comment', 'a.is_active', 'a.type', 'a.org_id', 'n.key as node_key'])
    .where('n.key', '=', key)
    .orderBy('a.name');
  if (search) q = q.where((eb) => eb.or([containsCi(ctx, 'a.name', search), containsCi(ctx, 'a.address', search)]));
  const rows = await q.execute();
  const sftp = new Set(
    (
      await ctx.db
        .selectFrom('assets_protocol')
        .select('asset_id')
        .where('name', '=', 'sftp')
        .where('asset_id', 'in', rows.length ? rows.map((r) => r.id) : [''])
        .execute()
    ).map((r) => r.asset_id),
  );
  const orgs = new Map(
    (await ctx.db.selectFrom('orgs_organization').select(['id', 'name']).execute()).map((o) => [o.id, o.name]),
  );
  return rows.map((a) => ({
    id: a.id,
    name: a.name,
    title: `${a.address}\n${a.comment}`,
    pId: a.node_key,
    isParent: false,
    open: false,
    iconSkin: a.type || 'file',
    chkDisabled: !toBool(a.is_active),
    meta: {
      type: 'asset',
      data: {
        platform_type: a.type,
        org_name: orgs.get(a.org_id) ?? '',
        sftp: sftp.has(a.id),
        name: a.name,
        address: a.address,
      },
    },
  }));
}

async function tree(req: FastifyRequest): Promise<Row[]> {
  const ctx = ctxOf(req);
  const q = req.query as Q;
  const withAssets = queryFlag(q.assets);
  const explicit = Boolean(q.key ?? q.id);
  const node = await subject(req);
  if (q.search) {
    const found = await visibleNodes(ctx)
      .where(containsCi(ctx, 'value', q.search))
      .limit(1000)
      .execute();
    const keys = [...new Set(found.flatMap((n) => ancestorKeys(n.key)))];
    const nodes = keys.length
      ? await visibleNodes(ctx).where('key', 'in', keys.slice(0, 5000)).orderBy('key').execute()
      : [];
    return nodes.map((n) => nodeJson(n, true));
  }
  const out: Row[] = [];
  if (!explicit) {
    const roots = node ? [node] : await children(ctx, undefined, false);
    for (const r of roots) out.push(nodeJson(r, true));
    for (const r of roots) for (const c of await children(ctx, r, false)) out.push(nodeJson(c, false));
    if (withAssets && node) out.push(...(await assetNodesJson(ctx, node.key, undefined)));
    return out;
  }
  for (const c of await children(ctx, node, false)) out.push(nodeJson(c, false));
  if (withAssets && node) out.push(...(await assetNodesJson(ctx, node.key, undefined)));
  return out;
}

async function createChildRoute(req: FastifyRequest, reply: FastifyReply) {
  const ctx = ctxOf(req);
  if (req.org.id === ROOT_ORG_ID) throw new ApiError(400, { error: rt(req.lang, 'save_in_org') });
  const parent = (await subject(req))!;
  const body = (req.body ?? {}) as { value?: unknown };
  let value = typeof body.value === 'string' ? body.value.trim() : '';
  const n = nodeDb(ctx);
  if (!value) {
    const base = am(req.lang, 'new_node');
    for (let i = 1; ; i++)
      if (!(await childNamed(n, parent.key, `${base} ${i}`))) {
        value = `${base} ${i}`;
        break;
      }
  }
  if (value.includes('/')) throw new ApiError(400, { value: [am(req.lang, 'node_slash')] });
  if (await childNamed(n, parent.key, value)) throw new ApiError(400, { error: am(req.lang, 'node_duplicate') });
  const row = await ctx.db.transaction().execute((trx) => createChild({ db: trx, dialect: n.dialect }, parent, value));
  return reply.code(201).send((await serializeRows(nodeResource, ctx, [row]))[0]);
}

async function moveRoute(req: FastifyRequest) {
  const ctx = ctxOf(req);
  const target = (await subject(req))!;
  const ids = ((req.body ?? {}) as { nodes?: unknown }).nodes;
  if (!Array.isArray(ids)) throw new ApiError(400, { nodes: [rt(req.lang, 'required')] });
  const nodes = ids.length
    ? await visibleNodes(ctx).where('id', 'in', ids.map(String)).where('org_id', '=', target.org_id).execute()
    : [];
  if (nodes.some((m) => m.parent_key === '' || target.key === m.key || target.key.startsWith(`${m.key}:`)))
    throw new ApiError(400, { error: am(req.lang, 'node_move_into_self') });
  await ctx.db.transaction().execute(async (trx) => {
    const n = { db: trx, dialect: nodeDb(ctx).dialect };
    await recount(n, await moveNodes(n, target, nodes));
  });
  return 'OK';
}

async function assetIdsOf(ctx: ResourceCtx, body: unknown, orgId: string): Promise<string[]> {
  const ids = ((body ?? {}) as { assets?: unknown }).assets;
  if (!Array.isArray(ids)) throw new ApiError(400, { assets: [rt(ctx.req.lang, 'required')] });
  if (!ids.length) return [];
  return (
    await ctx.db
      .selectFrom('assets_asset')
      .select('id')
      .where('id', 'in', ids.map(String))
      .where('org_id', '=', orgId)
      .execute()
  ).map((r) => r.id);
}

function membership(op: 'add' | 'remove' | 'replace') {
  return async (req: FastifyRequest) => {
    const ctx = ctxOf(req);
    const node = (await subject(req))!;
    const ids = await assetIdsOf(ctx, req.body, node.org_id);
    await ctx.db.transaction().execute(async (trx) => {
      const n = { db: trx, dialect: nodeDb(ctx).dialect };
      const before = ids.length
        ? (
            await trx
              .selectFrom('assets_asset_nodes')
              .select('node_id')
              .distinct()
              .where('asset_id', 'in', ids)
              .execute()
          ).map((r) => r.node_id)
        : [];
      if (op !== 'add' && ids.length) {
        let del = trx.deleteFrom('assets_asset_nodes').where('asset_id', 'in', ids);
        if (op === 'remove') del = del.where('node_id', '=', node.id);
        await del.execute();
      }
      const insertInto = op === 'remove' ? undefined : node;
      if (insertInto && ids.length) {
        const have = new Set(
          (
            await trx
              .selectFrom('assets_asset_nodes')
              .select('asset_id')
              .where('node_id', '=', insertInto.id)
              .where('asset_id', 'in', ids)
              .execute()
          ).map((r) => r.asset_id),
        );
        const rows = ids
          .filter((a) => !have.has(a))
          .map((a) => ({ id: randomUUID(), asset_id: a, node_id: insertInto.id }));
        if (rows.length) await trx.insertInto('assets_asset_nodes').values(rows).execute();
      }
      const touched = [node.id, ...before];
      if (op === 'remove' && ids.length) {
        const linked = new Set(
          (await trx.selectFrom('assets_asset_nodes').select('asset_id').where('asset_id', 'in', ids).execute()).map(
            (r) => r.asset_id,
          ),
        );
        const orphans = ids.filter((a) => !linked.has(a));
        const root = await orgRoot(n, node.org_id);
        if (orphans.length)
          await trx
            .insertInto('assets_asset_nodes')
            .values(orphans.map((a) => ({ id: randomUUID(), asset_id: a, node_id: root.id })))
            .execute();
        touched.push(root.id);
      }
      await recount(n, await keysOfNodes(n, touched));
    });
    return 'OK';
  };
}

async function nodeAssets(req: FastifyRequest) {
  const ctx = ctxOf(req);
  const node = (await subject(req))!;
  const q = req.query as Q;
  const all = queryFlag(q.all);
  const rows = await ctx.db
    .selectFrom('assets_asset')
    .selectAll()
    .where('id', 'in', assetsUnder(ctx, node.key, !all))
    .orderBy('name')
    .limit(1000)
    .execute();
  return serializeRows(allAssets, ctx, rows);
}

export function registerNodeTreeRoutes(app: FastifyInstance): void {
  const view = { config: { perm: 'assets.view_node' } };
  const add = { config: { perm: 'assets.add_node' } };
  const change = { config: { perm: 'assets.change_node' } };
  const members = { config: { perm: 'assets.change_assetnodes' } };
  const list = async (req: FastifyRequest) => {
    const ctx = ctxOf(req);
    const node = await subject(req);
    const q = req.query as Q;
    const rows = await children(ctx, node, q.all?.trim() === 'all' || queryFlag(q.all));
    const withSelf = node && !(req.params as { id?: string }).id && !q.id && !q.key ? [node, ...rows] : rows;
    return serializeRows(nodeResource, ctx, withSelf);
  };
  const described = { config: { ...view.config, describe: nodeResource } };
  app.get('/api/v1/assets/nodes/children/', described, list);
  app.get('/api/v1/assets/nodes/:id/children/', described, list);
  app.post('/api/v1/assets/nodes/children/', add, createChildRoute);
  app.post('/api/v1/assets/nodes/:id/children/', add, createChildRoute);
  app.get('/api/v1/assets/nodes/children/tree/', { config: { ...view.config, describe: treeNodes } }, tree);
  app.put('/api/v1/assets/nodes/:id/children/add/', change, moveRoute);
  app.patch('/api/v1/assets/nodes/:id/children/add/', change, moveRoute);
  app.get(
    '/api/v1/assets/nodes/:id/assets/',
    { config: { perm: 'assets.view_asset', describe: allAssets } },
    nodeAssets,
  );
  app.put('/api/v1/assets/nodes/:id/assets/add/', members, membership('add'));
  app.put('/api/v1/assets/nodes/:id/assets/remove/', members, membership('remove'));
  app.put('/api/v1/assets/nodes/:id/assets/replace/', members, membership('replace'));
}

export { fullValues };
