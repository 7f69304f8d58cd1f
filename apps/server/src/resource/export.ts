import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import ExcelJS from 'exceljs';
import { cellWriter, exportColumns } from './cells.ts';
import { csvCell } from './csv.ts';
import { first, listQuery, type Query } from './query.ts';
import { serializeRows } from './serialize.ts';
import { type ResourceCtx, type ResourceDef, type Row } from './types.ts';

/**
 * CSV/XLSX export and import templates. The list's query (same filters and order; `spm` for
 * selected rows) runs once and is read by a database cursor, EXPORT_BATCH_ROWS rows at a time
 * (platform/db/cursor.ts): each batch is serialised and written before the next is read, so memory
 * stays flat however many rows there are, and the total costs about what the query costs. When the
 * client goes away the response stream is destroyed, which ends these generators and releases the
 * cursor: no further batch is read.
 */

function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}_${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/** Rows in list order, a batch at a time, from one cursor over the list's query. */
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
  const { database, config } = ctx.req.server.deps;
  yield* database.cursor(q.compile(), config.limits.exportBatchRows);
}

type Writer = ((o: Row) => string) | undefined;

/** The export's columns: headers, and each column's cell writer chosen once (none for write-only ones). */
function columnsOf(def: ResourceDef, ctx: ResourceCtx, template: string | undefined) {
  const lang = ctx.req.lang;
  const cols = exportColumns(def, template, lang);
  const writers: Writer[] = cols.map((c) => {
    if (c.f.writeOnly) return undefined;
    const write = cellWriter(c.f, lang);
    return (o) => write(o[c.name]);
  });
  return {
    headers: cols.map((c) => c.header),
    writers,
    names: cols.map((c) => c.name).filter((n) => !def.fields[n]!.writeOnly),
  };
}

/** Serialised rows, a batch at a time. */
async function* serialized(
  def: ResourceDef,
  ctx: ResourceCtx,
  query: Query,
  template: string | undefined,
  names: string[],
) {
  for await (const rows of batches(def, ctx, query, template)) yield serializeRows(def, ctx, rows, names);
}

async function* csvChunks(headers: string[], writers: Writer[], rows: AsyncGenerator<Row[]>): AsyncGenerator<string> {
  yield `\uFEFF${headers.map(csvCell).join(',')}\r\n`;
  for await (const batch of rows) {
    // One string per batch, each cell written straight into it: a write per batch, no per-row arrays.
    let buf = '';
    for (const o of batch) {
      for (let i = 0; i < writers.length; i++) {
        const w = writers[i];
        buf += i ? `,${w ? csvCell(w(o)) : ''}` : w ? csvCell(w(o)) : '';
      }
      buf += '\r\n';
    }
    yield buf;
  }
}

function xlsxStream(
  headers: string[],
  writers: Writer[],
  batches: AsyncGenerator<Row[]>,
  sheetName: string,
  onError: (e: Error) => void,
): PassThrough {
  const out = new PassThrough();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet(sheetName.slice(0, 31));
  (async () => {
    sheet.addRow(headers).commit();
    for await (const rows of batches) {
      for (const o of rows) sheet.addRow(writers.map((w) => (w ? w(o) : ''))).commit();
      // Backpressure: wait while the reader is behind, so the zip's output does not pile up in memory.
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      // The client went away: leaving the loop ends the generators and releases the cursor.
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
  const { headers, writers, names } = columnsOf(def, ctx, template);
  const rows = serialized(def, ctx, query, template, names);
  const file = `${def.model}_${stamp()}.${format}`;
  reply.header('Content-Disposition', `attachment; filename="${file}"`);
  if (format === 'csv')
    return reply.type('text/csv; charset=utf-8').send(Readable.from(csvChunks(headers, writers, rows)));
  return reply
    .type('application/xlsx')
    .send(
      xlsxStream(headers, writers, rows, def.label[ctx.req.lang], (e) =>
        ctx.req.log.error({ err: e }, 'xlsx export failed'),
      ),
    );
}
