import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema.ts';
import { actorOf, diffOf, recordOperation } from './audit.ts';
import { columnOf } from './query.ts';
import { ID_CHUNK } from './validate.ts';
import { serializeOne } from './serialize.ts';
import { dyn, type ResourceCtx, type ResourceDef, type Row } from './types.ts';

/** Writes of one object: stored columns, link tables, the audit trail and the hooks, in one transaction. */

const AUDIT_COLUMNS = ['created_by', 'updated_by', 'date_created', 'date_updated'];

async function tableColumns(ctx: ResourceCtx, table: string): Promise<Set<string>> {
  const key = `${ctx.req.server.deps.database.dialect}:${table}`;
  let cols = columnCache.get(key);
  if (!cols) {
    const tables = await ctx.db.introspection.getTables();
    cols = new Set(tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? []);
    columnCache.set(key, cols);
  }
  return cols;
}
const columnCache = new Map<string, Set<string>>();

function storedValues(def: ResourceDef, data: Row): Row {
  const out: Row = {};
  for (const [name, value] of Object.entries(data)) {
    const col = columnOf(name, def.fields[name]!);
    if (col) out[col] = value;
  }
  return out;
}

async function writeLinks(def: ResourceDef, ctx: ResourceCtx, id: string | number, data: Row): Promise<void> {
  for (const [name, value] of Object.entries(data)) {
    const m = def.fields[name]!.m2m;
    if (!m || !Array.isArray(value)) continue;
    const t = m.through;
    const extra = t.where?.(ctx) ?? {};
    let del = dyn(ctx).deleteFrom(t.table).where(t.left, '=', id);
    for (const [k, v] of Object.entries(extra)) del = v === null ? del.where(k, 'is', null) : del.where(k, '=', v);
    await del.execute();
    if (!value.length) continue;
    const more = t.values?.(ctx) ?? {};
    const links = value.map((rid: string) => ({
      ...(t.hasId === false ? {} : { id: randomUUID() }),
      [t.left]: id,
      [t.right]: rid,
      ...extra,
      ...more,
    }));
    // In chunks, within the databases' bound-parameter limits (the count is bounded by validation).
    for (let i = 0; i < links.length; i += ID_CHUNK)
      await dyn(ctx)
        .insertInto(t.table)
        .values(links.slice(i, i + ID_CHUNK))
        .execute();
  }
}

/**
 * Runs in a transaction: the caller's when it already is one (a write nested in another), else a
 * new one, after whose commit the work given to `afterCommit` runs.
 */
export async function inTransaction<T>(ctx: ResourceCtx, fn: (c: ResourceCtx) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  const committed: NonNullable<ResourceCtx['committed']> = [];
  const out = await ctx.db.transaction().execute((trx: Kysely<DB>) => fn({ ...ctx, db: trx, committed }));
  for (const work of committed)
    void Promise.resolve()
      .then(work)
      .catch((e: Error) => ctx.req.log.error({ err: e.message }, 'work after a write failed'));
  return out;
}

/**
 * Runs `work` once the write's transaction commits (not awaited by the write: its failure is
 * logged); outside a transaction of `inTransaction`, at once.
 */
export function afterCommit(ctx: ResourceCtx, work: () => Promise<unknown> | void): void {
  if (ctx.committed) ctx.committed.push(work);
  else
    void Promise.resolve()
      .then(work)
      .catch((e: Error) => ctx.req.log.error({ err: e.message }, 'work after a write failed'));
}

export async function loadRow(def: ResourceDef, ctx: ResourceCtx, id: string | number): Promise<Row | undefined> {
  return (await dyn(ctx).selectFrom(def.table).selectAll().where('id', '=', id).executeTakeFirst()) as Row | undefined;
}

export function nameOf(def: ResourceDef, row: Row): string {
  return def.nameOf ? def.nameOf(row) : String(row.name ?? row.username ?? row.id);
}

export async function createObject(def: ResourceDef, ctx0: ResourceCtx, data: Row): Promise<Row> {
  return inTransaction(ctx0, async (ctx) => {
    const id = def.newId ? await def.newId(ctx) : randomUUID();
    const now = new Date().toISOString();
    const cols = await tableColumns(ctx, def.table);
    const values: Row = { id, ...storedValues(def, data) };
    const actor = actorOf(ctx.req);
    const audit: Row = { created_by: actor, updated_by: actor, date_created: now, date_updated: now };
    for (const c of AUDIT_COLUMNS) if (cols.has(c) && values[c] === undefined) values[c] = audit[c];
    if (def.orgScoped) values.org_id = ctx.req.org.id;
    await def.hooks?.beforeInsert?.(values, data, ctx);
    await dyn(ctx).insertInto(def.table).values(values).execute();
    await writeLinks(def, ctx, id, data);
    const row = (await loadRow(def, ctx, id))!;
    const after = await serializeOne(def, ctx, row);
    await def.hooks?.afterCreate?.({ ctx, id: String(id), data });
    await recordOperation(ctx.db, ctx.req, {
      action: 'create',
      def,
      resourceId: String(id),
      resourceName: nameOf(def, row),
      orgId: row.org_id,
      diff: diffOf(def, undefined, after, data),
    });
    return row;
  });
}

export async function updateObject(def: ResourceDef, ctx0: ResourceCtx, before: Row, data: Row): Promise<Row> {
  return inTransaction(ctx0, async (ctx) => {
    const beforeOut = await serializeOne(def, ctx, before);
    const values = storedValues(def, data);
    const cols = await tableColumns(ctx, def.table);
    if (cols.has('date_updated')) values.date_updated = new Date().toISOString();
    if (cols.has('updated_by')) values.updated_by = actorOf(ctx.req);
    if (Object.keys(values).length)
      await dyn(ctx).updateTable(def.table).set(values).where('id', '=', before.id).execute();
    await writeLinks(def, ctx, before.id, data);
    const row = (await loadRow(def, ctx, before.id))!;
    const after = await serializeOne(def, ctx, row);
    await def.hooks?.afterUpdate?.({ ctx, id: before.id, data, before });
    const diff = diffOf(def, beforeOut, after, data);
    if (diff.length)
      await recordOperation(ctx.db, ctx.req, {
        action: 'update',
        def,
        resourceId: before.id,
        resourceName: nameOf(def, row),
        orgId: row.org_id,
        diff,
      });
    return row;
  });
}

export async function deleteObjects(def: ResourceDef, ctx0: ResourceCtx, rows: Row[]): Promise<void> {
  if (!rows.length) return;
  await inTransaction(ctx0, async (ctx) => {
    for (const row of rows) await def.hooks?.beforeDelete?.(row, ctx);
    const outs = await Promise.all(rows.map((r) => serializeOne(def, ctx, r)));
    await dyn(ctx)
      .deleteFrom(def.table)
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    await def.hooks?.afterDelete?.(rows, ctx);
    for (const [i, row] of rows.entries()) {
      await recordOperation(ctx.db, ctx.req, {
        action: 'delete',
        def,
        resourceId: row.id,
        resourceName: nameOf(def, row),
        orgId: row.org_id,
        diff: diffOf(def, outs[i], undefined),
      });
    }
  });
}
