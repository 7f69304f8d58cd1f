import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerDef } from '../../resource/registry.ts';
import { metadata } from '../../resource/metadata.ts';
import { applyListParams, baseQuery, first, pageOf, type Query } from '../../resource/query.ts';
import { findVisible, listQuery } from '../../resource/routes.ts';
import { outputFields, serializeOne, serializeRows } from '../../resource/serialize.ts';
import { pageOfResults } from '../../resource/pagination.ts';
import { sendExport } from '../../resource/export.ts';
import type { AnyQuery, ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { loginLogResource } from './loginLogResource.ts';

/**
 * Read-only routes of the login logs: `login-logs/` (audits.view_userloginlog, org members) and
 * `my-login-logs/` (the caller's own attempts, any signed-in user), each with list, detail,
 * OPTIONS and CSV/XLSX export, as the framework's list.
 */
const ownScope = (def: ResourceDef): ResourceDef => ({
  ...def,
  url: '/api/v1/audits/my-login-logs/',
  scope: (q: AnyQuery, ctx: ResourceCtx) => q.where('audits_userloginlog.username' as never, '=', (ctx.req.user?.username ?? '') as never),
});

async function list(def: ResourceDef, req: FastifyRequest, reply: FastifyReply) {
  const ctx: ResourceCtx = { req, db: req.db };
  const query = req.query as Query;
  const format = first(query, 'format');
  if (format === 'csv' || format === 'xlsx') return sendExport(def, ctx, query, format, reply);
  const q = await listQuery(def, ctx, query);
  const fields = outputFields(def, query);
  const page = pageOf(query);
  if (!page) return serializeRows(def, ctx, (await q.execute()) as Row[], fields);
  const counted = (await applyListParams(def, ctx, baseQuery(def, ctx), query)).clearSelect().select((eb) => eb.fn.countAll().as('n')).executeTakeFirst() as Promise<{ n: number | string }>;
  const count = Number((await counted).n);
  const rows = (await q.limit(page.limit).offset(page.offset).execute()) as Row[];
  return pageOfResults(req, page, count, await serializeRows(def, ctx, rows, fields));
}

function registerReadOnly(app: FastifyInstance, def: ResourceDef, perm: string): void {
  const config = { config: { perm } };
  app.options(def.url, config, async (req) => metadata(def, req.lang));
  app.get(def.url, config, (req, reply) => list(def, req, reply));
  app.get<{ Params: { id: string } }>(`${def.url}:id/`, config, async (req) => {
    const ctx: ResourceCtx = { req, db: req.db };
    return serializeOne(def, ctx, await findVisible(def, ctx, req.params.id));
  });
}

export function registerLoginLogRoutes(app: FastifyInstance): void {
  registerDef(loginLogResource);
  registerReadOnly(app, loginLogResource, 'audits.view_userloginlog');
  // '*': any signed-in user (IsAuthenticated); the scope narrows to their own rows.
  registerReadOnly(app, ownScope(loginLogResource), '*');
}
