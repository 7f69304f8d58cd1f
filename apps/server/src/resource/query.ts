import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../http/errors.ts';
import type { AnyQuery, FieldDef, ResourceCtx, ResourceDef, Row } from './types.ts';
import { rt } from './messages.ts';
import { parseBool, parseDateTime } from './coerce.ts';
import { queryInt } from '../http/queryString.ts';
import { anyContains } from './textSearch.ts';

/** Building list queries from the parameters of the JumpServer API. */

export type Query = Record<string, string | string[] | undefined>;

const INT32_MAX = 2 ** 31 - 1;

export function first(q: Query, key: string): string | undefined {
  const v = q[key];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function columnOf(name: string, f: FieldDef): string | undefined {
  if (f.column === false || f.m2m || f.read) return undefined;
  return f.column ?? (f.fk ? `${name}_id` : name);
}

/** Rows of this resource visible here: the current org's (all orgs in ROOT), narrowed by the resource's scope. */
export function baseQuery(def: ResourceDef, ctx: ResourceCtx): AnyQuery {
  let q = ctx.db.selectFrom(def.table as never).selectAll(def.table as never) as unknown as AnyQuery;
  if (def.orgScoped && ctx.req.org.id !== ROOT_ORG_ID) q = q.where(sql.ref(`${def.table}.org_id`), '=', ctx.req.org.id);
  return def.scope ? def.scope(q, ctx) : q;
}

export { containsCi } from './textSearch.ts';

function searchTerms(raw: string): string[] {
  return raw
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Every term must match at least one searchable field (AND of ORs), as DRF's SearchFilter. The
 * fields on the table's own columns are matched together, through its substring index when it
 * helps (textSearch.ts `anyContains`); a field with `searchWith` says how itself.
 */
async function applySearch(def: ResourceDef, ctx: ResourceCtx, q: AnyQuery, raw: string): Promise<AnyQuery> {
  const searched = Object.entries(def.fields).filter(([, f]) => f.search);
  const columns = searched.flatMap(([n, f]) => (f.searchWith ? [] : (columnOf(n, f) ?? [])));
  const own = searched.flatMap(([, f]) => (f.searchWith ? [f.searchWith] : []));
  if (!columns.length && !own.length) return q;
  for (const term of searchTerms(raw)) {
    const matches = own.map((m) => m(ctx, term));
    if (columns.length) matches.unshift(await anyContains(ctx, def.table, columns, term));
    q = q.where((eb) => eb.or(matches));
  }
  return q;
}

async function applyFilter(
  def: ResourceDef,
  ctx: ResourceCtx,
  q: AnyQuery,
  name: string,
  f: FieldDef,
  value: string,
): Promise<AnyQuery> {
  if (typeof f.filter === 'function') return f.filter(q, value, ctx);
  const col = columnOf(name, f);
  if (!col) return q;
  let v: unknown = value;
  if (f.type === 'boolean') {
    v = parseBool(value);
    if (v === undefined) throw new ApiError(400, { [name]: [rt(ctx.req.lang, 'invalid_bool')] });
  } else if (f.type === 'integer' || (f.type === 'labeled_choice' && typeof f.choices?.[0]?.value === 'number')) {
    // Within a 32-bit column's range: a larger number is refused by PostgreSQL, so it would be a 500.
    if (!/^-?\d+$/.test(value) || Math.abs(Number(value)) > INT32_MAX)
      throw new ApiError(400, { [name]: [rt(ctx.req.lang, 'invalid_int')] });
    v = Number(value);
  }
  return q.where(sql.ref(`${def.table}.${col}`), '=', v);
}

async function idsFromSpm(ctx: ResourceCtx, spm: string): Promise<string[]> {
  return (await ctx.req.server.deps.cache.get<string[]>(`RESOURCE_IDS_${spm}`)) ?? [];
}

function splitIds(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The ids that can name a row of this resource: all of them, or for an integer primary key only
 * 32-bit integers (PostgreSQL refuses to compare an integer column with anything else).
 */
export function possibleIds(def: ResourceDef, ids: string[]): string[] {
  if (def.fields.id?.type !== 'integer') return ids;
  return ids.filter((v) => /^-?\d{1,10}$/.test(v) && Math.abs(Number(v)) <= INT32_MAX);
}

/** An id list within LIMIT_RELATION_IDS (a longer one would pass the databases' parameter limits). */
function boundedIds(ctx: ResourceCtx, param: string, ids: string[]): string[] {
  const max = ctx.req.server.deps.config.limits.relationIds;
  if (ids.length > max) throw new ApiError(400, { [param]: [rt(ctx.req.lang, 'too_many_ids', { max })] });
  return ids;
}

/**
 * The ids a hand-written route reads from a body field (`[id, ...]` or `[{id}|{pk}, ...]`), within
 * LIMIT_RELATION_IDS like every relation list: a longer one is a 400 naming the field. Undefined
 * when the field is not a list.
 */
export function bodyIds(ctx: ResourceCtx, param: string, v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  boundedIds(ctx, param, v as unknown[] as string[]);
  return v.map((x) => (x && typeof x === 'object' ? String((x as Row).id ?? (x as Row).pk) : String(x)));
}

/** `id IN (...)` over the ids that can exist; none of them matches nothing. */
function whereIdIn(def: ResourceDef, q: AnyQuery, ids: string[]): AnyQuery {
  const ok = possibleIds(def, ids);
  return ok.length ? q.where(sql.ref(`${def.table}.id`), 'in', ok) : q.where(sql.lit(false));
}

/** Applies spm, ids, id!, search, declared filters and the date range. */
export async function applyListParams(
  def: ResourceDef,
  ctx: ResourceCtx,
  q: AnyQuery,
  query: Query,
): Promise<AnyQuery> {
  const id = `${def.table}.id`;
  const spm = first(query, 'spm');
  if (spm) q = whereIdIn(def, q, await idsFromSpm(ctx, spm));
  const ids = first(query, 'ids');
  if (ids) q = whereIdIn(def, q, boundedIds(ctx, 'ids', splitIds(ids)));
  const notIds = possibleIds(def, boundedIds(ctx, 'id!', splitIds(first(query, 'id!') ?? '')));
  if (notIds.length) q = q.where(sql.ref(id), 'not in', notIds);
  const search = first(query, 'search');
  if (search) q = await applySearch(def, ctx, q, search);
  const oneId = first(query, 'id');
  if (oneId && !def.fields.id?.filter) q = whereIdIn(def, q, [oneId]);
  for (const [name, f] of Object.entries(def.fields)) {
    const value = first(query, name);
    if (f.filter && value !== undefined && value !== '') q = await applyFilter(def, ctx, q, name, f, value);
  }
  for (const [name, apply] of Object.entries(def.extraFilters ?? {})) {
    const value = first(query, name);
    if (value !== undefined && value !== '') q = await apply(q, value, ctx);
  }
  if (def.dateRangeField) {
    const col = sql.ref(`${def.table}.${def.dateRangeField}`);
    for (const [key, op] of [
      ['date_from', '>='],
      ['date_to', '<='],
    ] as const) {
      const raw = first(query, key);
      if (!raw) continue;
      const d = parseDateTime(raw);
      if (!d) throw new ApiError(400, { [key]: [rt(ctx.req.lang, 'invalid_datetime')] });
      q = q.where(col, op, d.toISOString());
    }
  }
  return q;
}

/** `order=a,-b` over orderable fields (others ignored, as DRF does), then the default order: columns, `-` descending. */
export function orderTerms(def: ResourceDef, raw: string | undefined): string[] {
  const wanted = (raw ? raw.split(',') : []).map((s) => s.trim()).filter(Boolean);
  const terms: string[] = [];
  for (const w of [...wanted, ...def.defaultOrder]) {
    const name = w.replace(/^-/, '');
    const f = def.fields[name];
    const col = f && (f.order || def.defaultOrder.includes(w)) ? columnOf(name, f) : undefined;
    if (!col || terms.some((t) => t.replace(/^-/, '') === col)) continue;
    terms.push(w.startsWith('-') ? `-${col}` : col);
  }
  return terms;
}

/** The list order (`orderTerms`), then id. */
export function applyOrder(def: ResourceDef, q: AnyQuery, raw: string | undefined): AnyQuery {
  for (const t of orderTerms(def, raw))
    q = q.orderBy(sql.ref(`${def.table}.${t.replace(/^-/, '')}`), t.startsWith('-') ? 'desc' : 'asc');
  return q.orderBy(sql.ref(`${def.table}.id`), 'asc');
}

/**
 * The largest offset a list accepts: beyond it no table has rows, and the databases refuse offsets
 * past 2^63 (so an unbounded one would answer 500). Larger offsets are read as this one.
 */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/** DRF's LimitOffsetPagination: a positive `limit` pages (capped at 100); otherwise everything. */
export function pageOf(query: Query, max = 100): { limit: number; offset: number } | undefined {
  // Read as the original reads them (http/queryString.ts): ` 10 ` is 10; an offset past what a
  // number holds is past every row.
  const l = queryInt(first(query, 'limit'));
  if (l === undefined || l <= 0) return undefined;
  const rawOffset = first(query, 'offset')?.trim();
  const o = queryInt(rawOffset) ?? (rawOffset && /^\d+$/.test(rawOffset) ? MAX_OFFSET : 0);
  return { limit: Math.min(l, max), offset: Math.min(Math.max(o, 0), MAX_OFFSET) };
}

/** The filtered, ordered rows of a list request (used by list, export and bulk operations). */
export async function listQuery(def: ResourceDef, ctx: ResourceCtx, query: Query) {
  return applyOrder(def, await applyListParams(def, ctx, baseQuery(def, ctx), query), first(query, 'order'));
}
