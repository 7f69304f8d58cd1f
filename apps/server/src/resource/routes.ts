import { sql, type Kysely } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { metadata } from './metadata.ts';
import { rt } from './messages.ts';
import { jsType } from './coerce.ts';
import {
  applyListParams,
  applyOrder,
  baseQuery,
  first,
  listQuery,
  orderTerms,
  pageOf,
  possibleIds,
  type Query,
} from './query.ts';
import { outputFields, serializeOne, serializeRows } from './serialize.ts';
import { validateObject, type FieldErrors } from './validate.ts';
import { createObject, deleteObjects, updateObject } from './write.ts';
import { sendExport } from './export.ts';
import { renderToJson } from './importParse.ts';
import { registerDef } from './registry.ts';
import { pageOfResults } from './pagination.ts';
import type { Action, AnyQuery, ResourceCtx, ResourceDef, Row } from './types.ts';

/** Every endpoint of a declared resource (the BulkRouter routes, OPTIONS, export and import). */

const VERB: Record<Action, string> = {
  list: 'view',
  retrieve: 'view',
  metadata: '',
  create: 'add',
  update: 'change',
  partial_update: 'change',
  bulk_update: 'change',
  destroy: 'delete',
  bulk_destroy: 'delete',
};

export function permFor(def: ResourceDef, action: Action): string {
  return def.perms?.[action] ?? `${def.app}.${VERB[action]}_${def.permModel ?? def.model}`;
}

const ctxOf = (req: FastifyRequest): ResourceCtx => ({ req, db: req.db });

function notFound(def: ResourceDef, req: FastifyRequest): ApiError {
  return new ApiError(404, {
    detail: rt(req.lang, 'not_found', { model: def.label.en }),
    code: 'object_does_not_exist',
  });
}

export async function findVisible(def: ResourceDef, ctx: ResourceCtx, id: string): Promise<Row> {
  // An id no row can have (text, or a number past a 32-bit key) is not found, not a database error;
  // a custom lookup still gets other text (platforms are also found by name).
  if (!possibleIds(def, [id]).length && (!def.lookup || /^-?\d+$/.test(id))) throw notFound(def, ctx.req);
  const q = def.lookup
    ? def.lookup(baseQuery(def, ctx), id, ctx)
    : baseQuery(def, ctx).where(sql.ref(`${def.table}.id`), '=', id);
  const row = (await q.executeTakeFirst()) as Row | undefined;
  if (!row) throw notFound(def, ctx.req);
  return row;
}

/**
 * A list request's answer: a page, every row (no limit), or a CSV/XLSX export. `narrow` keeps only
 * some rows before the request's own filters (a route that lists a subset of a resource).
 */
export async function listResponse(
  def: ResourceDef,
  req: FastifyRequest,
  reply: FastifyReply,
  narrow?: (q: AnyQuery) => AnyQuery,
) {
  const ctx = ctxOf(req);
  const query = req.query as Query;
  const format = first(query, 'format');
  // A narrowed list is a view of its own, not the resource's export.
  if ((format === 'csv' || format === 'xlsx') && !narrow) return sendExport(def, ctx, query, format, reply);
  const base = () => (narrow ? narrow(baseQuery(def, ctx)) : baseQuery(def, ctx));
  const q = applyOrder(def, await applyListParams(def, ctx, base(), query), first(query, 'order'));
  const fields = outputFields(def, query);
  const page = pageOf(query);
  if (!page) return serializeRows(def, ctx, (await q.execute()) as Row[], fields);
  const rows =
    (def.longList && (await windowPage(def, ctx, base, query, page))) ??
    ((await q.limit(page.limit).offset(page.offset).execute()) as Row[]);
  const count = await countMatches(def, ctx, await applyListParams(def, ctx, base(), query));
  return pageOfResults(req, page, count, await serializeRows(def, ctx, rows, fields));
}

/** The filtered rows' count; with `longList`, at most its cap (counting stops at cap + 1). */
async function countMatches(def: ResourceDef, ctx: ResourceCtx, filtered: AnyQuery): Promise<number> {
  const cap = def.longList?.countCap;
  if (!cap) {
    const r = (await filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst()) as { n: number | string };
    return Number(r.n);
  }
  const capped = filtered
    .clearSelect()
    .select(sql<number>`1`.as('one'))
    .limit(cap + 1)
    .as('capped');
  const r = (await (ctx.db as unknown as Kysely<Record<string, Row>>)
    .selectFrom(capped as never)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst()) as { n: number | string };
  return Math.min(Number(r.n), cap);
}

/**
 * `longList.window`'s first try: the page among the newest `window` rows of the default order (all rows
 * from the window's last value on, so ties stay whole), searched row by row. Undefined when the
 * order is another, the page lies beyond the window, the list is shorter than the window or the
 * window does not fill the page.
 */
async function windowPage(
  def: ResourceDef,
  ctx: ResourceCtx,
  base: () => AnyQuery,
  query: Query,
  page: { limit: number; offset: number },
): Promise<Row[] | undefined> {
  const window = def.longList?.window?.(ctx);
  const lead = orderTerms(def, first(query, 'order'))[0];
  if (!window || !lead || lead !== orderTerms(def, undefined)[0] || page.offset + page.limit > window) return undefined;
  const desc = lead.startsWith('-');
  const col = sql.ref(`${def.table}.${lead.replace(/^-/, '')}`);
  const edge = (await base()
    .clearSelect()
    .select(col.as('edge'))
    .orderBy(col, desc ? 'desc' : 'asc')
    .limit(1)
    .offset(window - 1)
    .executeTakeFirst()) as { edge: unknown } | undefined;
  if (edge?.edge === undefined || edge.edge === null) return undefined;
  const scan: ResourceCtx = { ...ctx, rowScan: true };
  const inWindow = (await applyListParams(def, scan, base(), query)).where(col, desc ? '>=' : '<=', edge.edge);
  const rows = (await applyOrder(def, inWindow, first(query, 'order'))
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as Row[];
  return rows.length === page.limit ? rows : undefined;
}

async function create(def: ResourceDef, req: FastifyRequest, reply: FastifyReply) {
  const ctx = ctxOf(req);
  await def.hooks?.beforeValidate?.(req.body, ctx);
  const many = Array.isArray(req.body);
  const items = many ? (req.body as unknown[]) : [req.body];
  const results = [];
  for (const item of items) results.push(await validateObject(def, ctx, item, 'create'));
  if (results.some((r) => !r.ok)) {
    const errors = results.map((r) => (r.ok ? {} : r.errors));
    return reply.code(400).send(many ? errors : errors[0]);
  }
  const out: Row[] = [];
  for (const r of results) {
    if (!r.ok) continue;
    const row = (await def.hooks?.createInstead?.(r.data, ctx, def)) ?? (await createObject(def, ctx, r.data));
    out.push(await serializeOne(def, ctx, row));
  }
  return reply.code(201).send(many ? out : out[0]);
}

async function update(def: ResourceDef, req: FastifyRequest<{ Params: { id: string } }>, partial: boolean) {
  const ctx = ctxOf(req);
  const before = await findVisible(def, ctx, req.params.id);
  await def.hooks?.beforeValidate?.(req.body, ctx, before);
  const r = await validateObject(def, ctx, req.body, partial ? 'partial' : 'update', before.id, before);
  if (!r.ok) throw new ApiError(400, r.errors);
  return serializeOne(def, ctx, await updateObject(def, ctx, before, r.data));
}

/** PUT/PATCH on the list: an array of objects with `id`, applied within the filtered rows. */
async function bulkUpdate(def: ResourceDef, req: FastifyRequest, partial: boolean) {
  const ctx: ResourceCtx = { ...ctxOf(req), bulk: true };
  if (!Array.isArray(req.body))
    throw new ApiError(400, { non_field_errors: [rt(req.lang, 'not_a_list', { type: jsType(req.body) })] });
  const items = req.body as Row[];
  const wanted = items
    .map((i) => (i && typeof i === 'object' ? (i.id ?? i.pk) : undefined))
    .filter((v) => v !== undefined && v !== null)
    .map(String);
  const inItems = (await listQuery(def, ctx, req.query as Query)).where(
    sql.ref(`${def.table}.id`),
    'in',
    wanted.length ? wanted : [''],
  );
  const visible = new Map(((await inItems.execute()) as Row[]).map((r) => [String(r.id), r]));
  const checked: ({ before: Row; data: Row } | FieldErrors)[] = [];
  for (const item of items) {
    const id = item && typeof item === 'object' ? (item.id ?? item.pk) : undefined;
    if (id === undefined) {
      checked.push({ id: [rt(req.lang, 'id_missing')] });
      continue;
    }
    const before = visible.get(String(id));
    if (!before) {
      checked.push({ id: [rt(req.lang, 'not_found', { model: def.label[req.lang] })] });
      continue;
    }
    await def.hooks?.beforeValidate?.(item, ctx, before);
    const { id: _id, pk: _pk, ...rest } = item;
    void _id;
    void _pk;
    const r = await validateObject(def, ctx, rest, partial ? 'partial' : 'update', before.id, before);
    checked.push(r.ok ? { before, data: r.data } : r.errors);
  }
  if (checked.some((c) => !('before' in c)))
    throw new ApiError(
      400,
      checked.map((c) => ('before' in c ? {} : c)),
    );
  const out: Row[] = [];
  for (const c of checked as { before: Row; data: Row }[])
    out.push(await serializeOne(def, ctx, await updateObject(def, ctx, c.before, c.data)));
  return out;
}

async function bulkDestroy(def: ResourceDef, req: FastifyRequest, reply: FastifyReply) {
  const ctx = ctxOf(req);
  const query = req.query as Query;
  if (!first(query, 'spm') && !first(query, 'ids'))
    throw new ApiError(400, { detail: rt(req.lang, 'bulk_delete_needs_ids'), code: 'bulk_delete_needs_ids' });
  const rows = (await (await listQuery(def, ctx, query)).execute()) as Row[];
  await def.hooks?.beforeBulkDelete?.(
    rows.map((r) => String(r.id)),
    ctx,
  );
  await deleteObjects(def, ctx, rows);
  return reply.code(204).send();
}

/** What a route of a declared resource serves: read from the route's config by the API description. */
export interface ResourceRoute {
  def: ResourceDef;
  action: Action | 'bulk_partial_update' | 'render_to_json';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    resource?: ResourceRoute;
  }
}

/** Registers list, detail, bulk, OPTIONS, export and import-parsing routes for one resource. */
export function registerResource(app: FastifyInstance, def: ResourceDef): void {
  registerDef(def);
  const guard = (action: ResourceRoute['action'], perm: Action = action as Action) => ({
    config: { perm: permFor(def, perm), resource: { def, action } },
  });
  const detail = `${def.url}:id/`;
  const meta = async (req: FastifyRequest) => metadata(def, req.lang);
  const metaRoute = { config: { resource: { def, action: 'metadata' as const } } };
  app.options(def.url, metaRoute, meta);
  app.options(detail, metaRoute, meta);
  app.get(def.url, guard('list'), (req, reply) => listResponse(def, req, reply));
  app.post(def.url, guard('create'), (req, reply) => create(def, req, reply));
  app.put(def.url, guard('bulk_update'), (req) => bulkUpdate(def, req, false));
  app.patch(def.url, guard('bulk_partial_update', 'bulk_update'), (req) => bulkUpdate(def, req, true));
  app.delete(def.url, guard('bulk_destroy'), (req, reply) => bulkDestroy(def, req, reply));
  app.post(`${def.url}render-to-json/`, guard('render_to_json', 'create'), (req) => renderToJson(def, req));
  app.get<{ Params: { id: string } }>(detail, guard('retrieve'), async (req) =>
    serializeOne(def, ctxOf(req), await findVisible(def, ctxOf(req), req.params.id)),
  );
  app.put<{ Params: { id: string } }>(detail, guard('update'), (req) => update(def, req, false));
  app.patch<{ Params: { id: string } }>(detail, guard('partial_update'), (req) => update(def, req, true));
  app.delete<{ Params: { id: string } }>(detail, guard('destroy'), async (req, reply) => {
    const ctx = ctxOf(req);
    await deleteObjects(def, ctx, [await findVisible(def, ctx, req.params.id)]);
    return reply.code(204).send();
  });
}
