import { ROOT_ORG_ID } from '@gatehouse/contract';
import { jsType, parseBool, parseDateTime, relatedPk } from './coerce.ts';
import { decodeSecretField } from './secretFields.ts';
import { rt } from './messages.ts';
import { columnOf } from './query.ts';
import { dyn, type AnyQuery, type FieldDef, type ResourceCtx, type ResourceDef, type Row } from './types.ts';

/** Input validation with DRF's field messages, in the request's language. */

export type Mode = 'create' | 'update' | 'partial';
export type FieldErrors = Record<string, string[]>;
export type Validated = { ok: true; data: Row } | { ok: false; errors: FieldErrors };

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isWritable(f: FieldDef): boolean {
  return !f.readOnly && !f.read;
}

/** Ids per query when checking or linking many (well under SQLite's and PostgreSQL's parameter limits). */
export const ID_CHUNK = 500;

async function existingIds(
  ctx: ResourceCtx,
  table: string,
  ids: string[],
  choosable?: (q: AnyQuery, ctx: ResourceCtx) => AnyQuery,
): Promise<Set<string>> {
  const found = new Set<string>();
  // In chunks: one IN list of every id would pass the databases' bound-parameter limits.
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    let q = dyn(ctx)
      .selectFrom(table)
      .select(`${table}.id`)
      .where(`${table}.id`, 'in', ids.slice(i, i + ID_CHUNK));
    if (choosable) q = choosable(q as AnyQuery, ctx) as typeof q;
    for (const r of (await q.execute()) as Row[]) found.add(String(r.id));
  }
  return found;
}

/** One value to its stored form, or an error message. */
async function coerce(f: FieldDef, v: unknown, ctx: ResourceCtx): Promise<{ value?: unknown; error?: string }> {
  const lang = ctx.req.lang;
  if (f.parse && v !== null) return f.parse(v, ctx);
  if (v === null) return f.required ? { error: rt(lang, 'null') } : { value: null };
  switch (f.type) {
    case 'string':
    case 'email': {
      if (typeof v !== 'string' && typeof v !== 'number')
        return { error: rt(lang, 'incorrect_type', { type: jsType(v) }) };
      const s = String(v).trim();
      if (!s && f.required) return { error: rt(lang, 'blank') };
      if (f.maxLength && s.length > f.maxLength) return { error: rt(lang, 'max_length', { n: f.maxLength }) };
      if (f.type === 'email' && s && !EMAIL_RE.test(s)) return { error: rt(lang, 'invalid_email') };
      return { value: s };
    }
    case 'integer': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
      if (!Number.isInteger(n)) return { error: rt(lang, 'invalid_int') };
      if (f.minValue !== undefined && n < f.minValue) return { error: rt(lang, 'min_value', { n: f.minValue }) };
      if (f.maxValue !== undefined && n > f.maxValue) return { error: rt(lang, 'max_value', { n: f.maxValue }) };
      return { value: n };
    }
    case 'boolean': {
      const b = parseBool(v);
      return b === undefined ? { error: rt(lang, 'invalid_bool') } : { value: b };
    }
    case 'datetime': {
      const d = parseDateTime(v);
      return d ? { value: d.toISOString() } : { error: rt(lang, 'invalid_datetime') };
    }
    case 'choice':
    case 'labeled_choice': {
      const raw = v && typeof v === 'object' && 'value' in (v as Row) ? (v as Row).value : v;
      const c = f.choices?.find((x) => x.value === raw || String(x.value) === String(raw));
      return c ? { value: c.value } : { error: rt(lang, 'invalid_choice', { value: String(raw) }) };
    }
    case 'json': {
      if (typeof v === 'string') {
        try {
          return { value: JSON.stringify(JSON.parse(v)) };
        } catch {
          return { error: rt(lang, 'invalid_json') };
        }
      }
      return { value: JSON.stringify(v) };
    }
    case 'list':
      return Array.isArray(v) ? { value: JSON.stringify(v) } : { error: rt(lang, 'not_a_list', { type: jsType(v) }) };
    case 'object_related_field': {
      const pk = relatedPk(v);
      if (!pk) return { error: rt(lang, 'incorrect_type', { type: jsType(v) }) };
      const found = await existingIds(ctx, f.fk!.table, [pk], f.fk!.choosable);
      return found.has(pk) ? { value: pk } : { error: rt(lang, 'invalid_pk', { pk }) };
    }
    case 'm2m_related_field': {
      if (!Array.isArray(v)) return { error: rt(lang, 'not_a_list', { type: jsType(v) }) };
      const max = ctx.req.server.deps.config.limits.relationIds;
      if (v.length > max) return { error: rt(lang, 'too_many_ids', { max }) };
      const pks: string[] = [];
      for (const item of v) {
        const pk = relatedPk(item);
        if (!pk) return { error: rt(lang, 'incorrect_type', { type: jsType(item) }) };
        pks.push(pk);
      }
      const found = await existingIds(ctx, f.m2m!.table, [...new Set(pks)], f.m2m!.choosable);
      const missing = pks.find((p) => !found.has(p));
      return missing ? { error: rt(lang, 'invalid_pk', { pk: missing }) } : { value: [...new Set(pks)] };
    }
    default:
      return { value: v };
  }
}

async function checkUnique(
  def: ResourceDef,
  ctx: ResourceCtx,
  name: string,
  f: FieldDef,
  value: unknown,
  id: string | undefined,
  orgId: string,
): Promise<string | undefined> {
  const col = columnOf(name, f);
  if (!col || value === null || value === '') return undefined;
  let q = dyn(ctx).selectFrom(def.table).select('id').where(col, '=', value);
  if (def.orgScoped) q = q.where('org_id', '=', orgId);
  if (id) q = q.where('id', '!=', id);
  if (!(await q.executeTakeFirst())) return undefined;
  return rt(ctx.req.lang, 'unique', {
    model: def.label[ctx.req.lang].toLowerCase(),
    field: f.label[ctx.req.lang].toLowerCase(),
  });
}

/**
 * Validates one object. `create` fills defaults and requires required fields; `update` (PUT)
 * requires them too; `partial` (PATCH) checks only what was sent.
 */
export async function validateObject(
  def: ResourceDef,
  ctx: ResourceCtx,
  input: unknown,
  mode: Mode,
  id?: string,
  before?: Row,
): Promise<Validated> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    return {
      ok: false,
      errors: { non_field_errors: [rt(ctx.req.lang, 'not_a_dict', { type: jsType(input) })] },
    };
  }
  const body = input as Row;
  const errors: FieldErrors = {};
  const data: Row = {};
  const orgId = before?.org_id ?? ctx.req.org.id;
  if (def.orgScoped && mode === 'create' && ctx.req.org.id === ROOT_ORG_ID) {
    return { ok: false, errors: { non_field_errors: [rt(ctx.req.lang, 'save_in_org')] } };
  }
  for (const [name, f] of Object.entries(def.fields)) {
    if (!isWritable(f)) continue;
    let v = body[name];
    if (v === undefined) {
      if (mode === 'partial') continue;
      if (mode === 'create' && f.default !== undefined)
        v = typeof f.default === 'function' ? (f.default as (c: ResourceCtx) => unknown)(ctx) : f.default;
      else if (f.required) {
        errors[name] = [rt(ctx.req.lang, 'required')];
        continue;
      } else continue;
    }
    if (f.encrypted) v = await decodeSecretField(ctx.req, v, name);
    const r = await coerce(f, v, ctx);
    if (r.error) {
      errors[name] = [r.error];
      continue;
    }
    let value = r.value;
    for (const check of f.validate ?? []) {
      const msg = await check(value, { ...ctx, data: body, ...(id ? { id } : {}) });
      if (msg) {
        errors[name] = [msg];
        break;
      }
    }
    if (errors[name]) continue;
    if (f.unique) {
      const msg = await checkUnique(def, ctx, name, f, value, id, orgId);
      if (msg) {
        errors[name] = [msg];
        continue;
      }
    }
    if (f.toStorage && value !== null) value = await f.toStorage(value, ctx);
    data[name] = value;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  const more = await def.hooks?.validate?.(data, { ...ctx, ...(id ? { id } : {}), ...(before ? { before } : {}) });
  if (more && Object.keys(more).length) return { ok: false, errors: more };
  return { ok: true, data };
}
