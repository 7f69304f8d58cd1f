import { ROOT_ORG_ID } from '@gatehouse/contract';
import { formatDateTime } from '../http/datetime.ts';
import { toBool } from '../platform/db/schema.ts';
import { dyn, type FieldDef, type M2MDef, type ResourceCtx, type ResourceDef, type Row } from './types.ts';

/** Stored rows to the contract's JSON, relations loaded in one query per field. */

function labelOf(f: FieldDef, value: unknown, ctx: ResourceCtx): string {
  const c = f.choices?.find((x) => x.value === value || String(x.value) === String(value));
  return c ? c.label[ctx.req.lang] : String(value);
}

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? null;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export function primitiveOut(f: FieldDef, v: unknown, ctx: ResourceCtx): unknown {
  if (v === null || v === undefined) return f.type === 'list' ? [] : null;
  switch (f.type) {
    case 'boolean':
      return toBool(v as number);
    case 'datetime':
      return formatDateTime(v as string, ctx.req.tz);
    case 'labeled_choice':
      return { value: v, label: labelOf(f, v, ctx) };
    case 'json':
    case 'list':
      return parseJson(v);
    case 'integer':
      return Number(v);
    default:
      return v;
  }
}

async function loadFk(ctx: ResourceCtx, f: FieldDef, ids: string[]): Promise<Map<string, Row>> {
  const label = f.fk!.labelColumn ?? 'name';
  if (!ids.length) return new Map();
  const rows = (await dyn(ctx)
    .selectFrom(f.fk!.table)
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute()) as Row[];
  const out = f.fk!.output ?? ((r: Row) => ({ id: r.id, name: r[label] }));
  return new Map(rows.map((r) => [String(r.id), out(r, ctx)]));
}

/** Related objects of each row through the link table: `{rowId: [{id, name, ...}]}`. */
export async function loadM2M(ctx: ResourceCtx, m: M2MDef, rowIds: string[]): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>(rowIds.map((id) => [id, []]));
  if (!rowIds.length) return out;
  const t = m.through;
  let q = dyn(ctx)
    .selectFrom(`${t.table} as l`)
    .innerJoin(`${m.table} as r`, 'r.id', `l.${t.right}`)
    .selectAll('r')
    .select(`l.${t.left} as __left`)
    .where(`l.${t.left}`, 'in', rowIds);
  for (const [k, v] of Object.entries(t.where?.(ctx) ?? {}))
    q = v === null ? q.where(`l.${k}`, 'is', null) : q.where(`l.${k}`, '=', v);
  const label = m.labelColumn ?? 'name';
  const rows = (await q.orderBy(`r.${label}`).execute()) as Row[];
  for (const r of rows) {
    const item = m.output ? m.output(r, ctx) : { id: r.id, name: r[label] };
    out.get(String(r.__left))?.push(item);
  }
  return out;
}

async function orgNames(ctx: ResourceCtx, ids: string[]): Promise<Map<string, string>> {
  const uniq = [...new Set(ids)].filter((i) => i !== ROOT_ORG_ID);
  if (!uniq.length) return new Map();
  const rows = await ctx.db.selectFrom('orgs_organization').select(['id', 'name']).where('id', 'in', uniq).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Which fields leave in the output: all readable ones, or those asked by `fields=` / `fields_size=`. */
export function outputFields(def: ResourceDef, query: Record<string, unknown> = {}): string[] {
  const readable = Object.entries(def.fields)
    .filter(([, f]) => !f.writeOnly)
    .map(([n]) => n);
  const size = query.fields_size;
  const pick = size === 'mini' ? def.fieldsMini : size === 'small' ? def.fieldsSmall : undefined;
  const fields = typeof query.fields === 'string' ? query.fields.split(',') : pick;
  const dropped = typeof query['fields!'] === 'string' ? (query['fields!'] as string).split(',') : [];
  const chosen = fields ? readable.filter((n) => fields.includes(n)) : readable;
  return chosen.filter((n) => !dropped.includes(n));
}

export async function serializeRows(
  def: ResourceDef,
  ctx: ResourceCtx,
  rows: Row[],
  names = outputFields(def),
): Promise<Row[]> {
  const ids = rows.map((r) => String(r.id));
  await def.prepare?.(rows, ctx);
  const fkMaps = new Map<string, Map<string, Row>>();
  const m2mMaps = new Map<string, Map<string, Row[]>>();
  for (const name of names) {
    const f = def.fields[name]!;
    if (f.fk)
      fkMaps.set(
        name,
        await loadFk(
          ctx,
          f,
          rows
            .map((r) => r[f.column || `${name}_id`])
            .filter(Boolean)
            .map(String),
        ),
      );
    if (f.m2m) m2mMaps.set(name, await loadM2M(ctx, f.m2m, ids));
  }
  const orgs = def.orgScoped
    ? await orgNames(
        ctx,
        rows.map((r) => String(r.org_id)),
      )
    : undefined;
  // How each field is read, chosen once for the batch rather than once per row.
  const plan = names.map((name): [string, (row: Row) => unknown] => {
    const f = def.fields[name]!;
    if (f.read) return [name, (row) => f.read!(row, ctx)];
    if (f.fk) {
      const map = fkMaps.get(name)!;
      const col = f.column || `${name}_id`;
      return [name, (row) => map.get(String(row[col])) ?? null];
    }
    if (f.m2m) {
      const map = m2mMaps.get(name)!;
      return [name, (row) => map.get(String(row.id)) ?? []];
    }
    const col = f.column || name;
    if (f.out) return [name, (row) => f.out!(row[col], ctx, row)];
    return [name, (row) => primitiveOut(f, row[col], ctx)];
  });
  return rows.map((row) => {
    const out: Row = {};
    for (const [name, get] of plan) out[name] = get(row);
    if (orgs) {
      out.org_id = row.org_id;
      out.org_name = orgs.get(String(row.org_id)) ?? '';
    }
    return out;
  });
}

export async function serializeOne(def: ResourceDef, ctx: ResourceCtx, row: Row): Promise<Row> {
  return (await serializeRows(def, ctx, [row]))[0]!;
}
