import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { recordOperation } from '../../resource/audit.ts';
import { rt } from '../../resource/messages.ts';
import { pageOf, type Query } from '../../resource/query.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { dyn, type ResourceCtx, type Row } from '../../resource/types.ts';
import { fullValues } from '../assets/nodeStore.ts';
import { assetPermissionResource as def, linkableIds, PERM_LINKS, type LinkName } from './permResource.ts';
import { pm } from './permMessages.ts';
import { shape } from '../../resource/describe.ts';
import { templateAccounts } from './templateAccountsPort.ts';

/**
 * `asset-permissions-{users,user-groups,assets,nodes}-relations/`: the link rows of permissions,
 * listed, added (one or a list) and removed (`?assetpermission=&<target>=`, or `?ids=`). Reading
 * needs the permission's view permission; adding and removing change a permission, so they need
 * `perms.change_assetpermission`. Only permissions of the request's org are reachable (any org's
 * from the global org), and a target must belong to the permission's org.
 */
const KINDS: { url: string; link: LinkName; field: string }[] = [
  { url: 'users', link: 'users', field: 'user' },
  { url: 'user-groups', link: 'user_groups', field: 'usergroup' },
  { url: 'assets', link: 'assets', field: 'asset' },
  { url: 'nodes', link: 'nodes', field: 'node' },
];

type Q = Record<string, string | undefined>;
const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });

function visiblePerms(req: FastifyRequest) {
  const q = req.db.selectFrom('perms_assetpermission').select(['id', 'name', 'org_id', 'accounts']);
  return req.org.id === ROOT_ORG_ID ? q : q.where('org_id', '=', req.org.id);
}

async function displays(ctx: ResourceCtx, link: LinkName, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const { target } = PERM_LINKS[link];
  const rows = (await dyn(ctx).selectFrom(target).selectAll().where('id', 'in', ids).execute()) as Row[];
  if (link === 'users') return new Map(rows.map((r) => [r.id, `${r.name}(${r.username})`]));
  if (link === 'assets') return new Map(rows.map((r) => [r.id, `${r.name}(${r.address})`]));
  if (link === 'nodes') {
    const full = await fullValues(
      ctx,
      rows.map((r) => r.key),
    );
    return new Map(rows.map((r) => [r.id, full.get(r.key) ?? r.value]));
  }
  return new Map(rows.map((r) => [r.id, r.name]));
}

const split = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function register(app: FastifyInstance, kind: (typeof KINDS)[number]): void {
  const { table, right } = PERM_LINKS[kind.link];
  const url = `/api/v1/perms/asset-permissions-${kind.url}-relations/`;
  const rows = (req: FastifyRequest) => {
    const q = req.query as Q;
    let sel = dyn(ctxOf(req))
      .selectFrom(`${table} as l`)
      .innerJoin('perms_assetpermission as p', 'p.id', 'l.assetpermission_id')
      .select(['l.id', `l.${right} as target`, 'l.assetpermission_id', 'p.name as perm_name']);
    if (req.org.id !== ROOT_ORG_ID) sel = sel.where('p.org_id', '=', req.org.id);
    if (q.assetpermission) sel = sel.where('l.assetpermission_id', 'in', split(q.assetpermission));
    if (q[kind.field]) sel = sel.where(`l.${right}`, 'in', split(q[kind.field]));
    if (q.ids) sel = sel.where('l.id', 'in', split(q.ids));
    return sel;
  };
  const out = async (req: FastifyRequest, list: Row[]) => {
    const names = await displays(
      ctxOf(req),
      kind.link,
      list.map((r) => String(r.target)),
    );
    return list.map((r) => ({
      id: r.id,
      [kind.field]: r.target,
      [`${kind.field}_display`]: names.get(String(r.target)) ?? '',
      assetpermission: r.assetpermission_id,
      assetpermission_display: r.perm_name,
    }));
  };

  const describe = shape('permission_relation', {
    id: 'string',
    [kind.field]: 'string',
    [`${kind.field}_display`]: 'string',
    assetpermission: 'string',
    assetpermission_display: 'string',
  });
  app.get(url, { config: { perm: 'perms.view_assetpermission', describe } }, async (req) => {
    const page = pageOf(req.query as Query);
    const base = rows(req);
    if (!page) return out(req, (await base.orderBy('l.id').execute()) as Row[]);
    const count = Number(
      (
        (await base
          .clearSelect()
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()) as Row
      ).n,
    );
    const list = (await base.orderBy('l.id').limit(page.limit).offset(page.offset).execute()) as Row[];
    return pageOfResults(req, page, count, await out(req, list));
  });

  app.post(url, { config: { perm: 'perms.change_assetpermission' } }, async (req, reply: FastifyReply) => {
    const items = (Array.isArray(req.body) ? req.body : [req.body]) as unknown[];
    const max = req.server.deps.config.limits.relationIds;
    if (items.length > max) throw new ApiError(400, { detail: rt(req.lang, 'too_many_ids', { max }) });
    const errors: Row[] = [];
    const wanted: { perm: Row; target: string }[] = [];
    const perms = new Map<string, Row>();
    for (const item of items) {
      const o = (item && typeof item === 'object' ? item : {}) as Row;
      const permId = typeof o.assetpermission === 'string' ? o.assetpermission : '';
      const target = typeof o[kind.field] === 'string' ? (o[kind.field] as string) : '';
      const err: Row = {};
      if (!permId) err.assetpermission = [pm(req.lang, 'relation_field_required')];
      if (!target) err[kind.field] = [pm(req.lang, 'relation_field_required')];
      let perm = perms.get(permId);
      if (permId && !perm) {
        perm = await visiblePerms(req).where('id', '=', permId).executeTakeFirst();
        if (perm) perms.set(permId, perm);
        else err.assetpermission = [pm(req.lang, 'relation_other_org', { pk: permId })];
      }
      if (perm && target && !(await linkableIds(ctxOf(req), kind.link, String(perm.org_id), [target])).has(target))
        err[kind.field] = [pm(req.lang, 'relation_other_org', { pk: target })];
      errors.push(err);
      if (!Object.keys(err).length) wanted.push({ perm: perm!, target });
    }
    if (errors.some((e) => Object.keys(e).length))
      throw new ApiError(400, Array.isArray(req.body) ? errors : errors[0]!);
    const created: Row[] = [];
    await req.db.transaction().execute(async (trx) => {
      for (const w of wanted) {
        const row = { id: randomUUID(), assetpermission_id: String(w.perm.id), [right]: w.target };
        const res = await (trx as unknown as ReturnType<typeof dyn>)
          .insertInto(table)
          .values(row)
          .onConflict((oc) => oc.columns(['assetpermission_id', right]).doNothing())
          .executeTakeFirst();
        if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0)
          created.push({ ...row, target: w.target, perm_name: w.perm.name });
      }
      for (const perm of perms.values())
        await recordOperation(trx, req, {
          action: 'update',
          def,
          resourceId: String(perm.id),
          resourceName: String(perm.name),
          orgId: String(perm.org_id),
          diff: [{ field: kind.link, before: '', after: created.map((c) => c.target).join(', ') }],
        });
    });
    // Assets or nodes added: the permissions' `%<template>` accounts on them (templateAccountsPort.ts).
    const port = templateAccounts();
    if (port && (kind.link === 'assets' || kind.link === 'nodes'))
      for (const id of new Set(created.map((c) => String(c.assetpermission_id)))) {
        const perm = perms.get(id);
        if (perm && String(perm.accounts ?? '').includes('"%')) await port(req, id);
      }
    const answer = await out(req, created);
    return reply.code(201).send(Array.isArray(req.body) ? answer : (answer[0] ?? {}));
  });

  app.delete(url, { config: { perm: 'perms.change_assetpermission' } }, async (req, reply: FastifyReply) => {
    const q = req.query as Q;
    if (!q.ids && !(q.assetpermission && q[kind.field]))
      throw new ApiError(400, { detail: pm(req.lang, 'relation_delete_filter') });
    const found = (await rows(req).execute()) as Row[];
    if (found.length)
      await req.db.transaction().execute(async (trx) => {
        await (trx as unknown as ReturnType<typeof dyn>)
          .deleteFrom(table)
          .where(
            'id',
            'in',
            found.map((r) => r.id),
          )
          .execute();
        const byPerm = new Map<string, Row[]>();
        for (const r of found) byPerm.set(r.assetpermission_id, [...(byPerm.get(r.assetpermission_id) ?? []), r]);
        for (const [permId, links] of byPerm) {
          const perm = await trx
            .selectFrom('perms_assetpermission')
            .select(['name', 'org_id'])
            .where('id', '=', permId)
            .executeTakeFirstOrThrow();
          await recordOperation(trx, req, {
            action: 'update',
            def,
            resourceId: permId,
            resourceName: perm.name,
            orgId: perm.org_id,
            diff: [{ field: kind.link, before: links.map((l) => l.target).join(', '), after: '' }],
          });
        }
      });
    return reply.code(204).send();
  });
}

export function registerRelationRoutes(app: FastifyInstance): void {
  for (const kind of KINDS) register(app, kind);
}
