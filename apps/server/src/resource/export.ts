import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import ExcelJS from 'exceljs';
import { exportColumns, neutralise, toCell } from './cells.ts';
import { csvLine } from './csv.ts';
import { afterRow, termsOf } from './keyset.ts';
import { first, listQuery, orderTerms, type Query } from './query.ts';
import { serializeRows } from './serialize.ts';
import { type ResourceCtx, type ResourceDef, type Row } from './types.ts';

/**
 * CSV/XLSX export and import templates, streamed in batches so memory
 * stays flat however many rows there are. Same filters as the list; `spm` for selected rows.
 */
export const BATCH = 1000;

function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}_${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/**
 * Rows in list order, a batch at a time: each batch is the next BATCH rows after the last one
 * sent (keyset.ts), so nothing but the current batch is held — never the whole id list, and
 * never an OFFSET that re-sorts the whole set.
 */
export async function* batches(
  def: ResourceDef,
  ctx: ResourceCtx,
  query: Query,
  template: string | undefined,
): AsyncGenerator<Row[]> {
  const q = await listQuery(def, ctx, query);
  if (template === 'import' && !first(query, 'spm')) {
    // An import template carries at most one example row.
    yield (await q.limit(1).execute()) as Row[];
    return;
  }
  const terms = termsOf(orderTerms(def, first(query, 'order')));
  const dialect = ctx.req.server.deps.database.dialect;
  let last: Row | undefined;
  for (;;) {
    const rows = (await (last ? q.where(afterRow(def.table, terms, last, dialect)) : q)
      .limit(BATCH)
      .execute()) as Row[];
    if (rows.length) yield rows;
    if (rows.length < BATCH) return;
    last = rows[rows.length - 1];
  }
}

async function* cellRows(def: ResourceDef, ctx: ResourceCtx, query: Query, template: string | undefined) {
  const cols = exportColumns(def, template, ctx.req.lang);
  yield cols.map((c) => c.header);
  const names = cols.map((c) => c.name).filter((n) => !def.fields[n]!.writeOnly);
  for await (const rows of batches(def, ctx, query, template)) {
    const out = await serializeRows(def, ctx, rows, names);
    for (const o of out) yield cols.map((c) => (c.f.writeOnly ? '' : neutralise(toCell(c.f, o[c.name], ctx.req.lang))));
  }
}

async function* csvChunks(rows: AsyncGenerator<string[]>): AsyncGenerator<string> {
  yield '\uFEFF';
  let buf = '';
  for await (const r of rows) {
    buf += csvLine(r);
    if (buf.length > 64 * 1024) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

function xlsxStream(rows: AsyncGenerator<string[]>, sheetName: string, onError: (e: Error) => void): PassThrough {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName.slice(0, 31));
  (async () => {
    for await (const r of rows) {
      sheet.addRow(r).commit();
      // Backpressure: wait while the reader is behind, so the zip's output does not pile up in memory.
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      if (out.destroyed) return;
    }
    sheet.commit();
    await book.commit();
  })().catch((e: Error) => {
    onError(e);
    out.destroy(e);
  });
  return out;
}

export async function sendExport(
  def: ResourceDef,
  ctx: ResourceCtx,
  query: Query,
  format: 'csv' | 'xlsx',
  reply: FastifyReply,
) {
  const template = first(query, 'template');
  const rows = cellRows(def, ctx, query, template);
  const file = `${def.model}_${stamp()}.${format}`;
  reply.header('Content-Disposition', `attachment; filename="${file}"`);
  if (format === 'csv') return reply.type('text/csv; charset=utf-8').send(Readable.from(csvChunks(rows)));
  return reply
    .type('application/xlsx')
    .send(xlsxStream(rows, def.label[ctx.req.lang], (e) => ctx.req.log.error({ err: e }, 'xlsx export failed')));
}
