import type { FastifyInstance, FastifyRequest } from 'fastify';
import ExcelJS from 'exceljs';
import { ApiError } from '../http/errors.ts';
import { fromCell } from './cells.ts';
import { decodeText, parseCsv } from './csv.ts';
import { rt } from './messages.ts';
import { t } from '../http/messages.ts';
import type { ResourceDef, Row } from './types.ts';

/**
 * `POST <list>/render-to-json/`: a CSV (`text/csv`) or Excel (`text/xlsx`)
 * body becomes `{title: [[column title, field]], data: [rows]}`; columns are matched to fields by
 * label (any language) or name, case-insensitively, ignoring a leading `*`.
 */
export const IMPORT_MAX_BYTES = 30 * 1024 * 1024;
const TYPES = ['text/csv', 'text/xlsx'];

/** Raw bodies for import parsing; size and type problems get a 400 that says what was wrong. */
export function registerImportParsers(app: FastifyInstance): void {
  app.addContentTypeParser(TYPES, { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES }, (_req, body, done) =>
    done(null, body),
  );
}

async function xlsxRows(buf: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buf as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  if (!sheet) return [];
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    for (let i = 1; i <= sheet.columnCount; i++) {
      const v = row.getCell(i).value;
      cells.push(
        v === null || v === undefined
          ? ''
          : typeof v === 'object' && 'text' in v
            ? String(v.text)
            : v instanceof Date
              ? v.toISOString()
              : String(v),
      );
    }
    rows.push(cells);
  });
  return rows;
}

function fieldForHeader(def: ResourceDef, header: string): string | undefined {
  const h = header.trim().replace(/^\*/, '').trim().toLowerCase();
  if (h === 'id') return 'id';
  for (const [name, f] of Object.entries(def.fields)) {
    if (name.toLowerCase() === h || Object.values(f.label).some((l) => l.toLowerCase() === h)) return name;
  }
  return undefined;
}

export async function renderToJson(
  def: ResourceDef,
  req: FastifyRequest,
): Promise<{ title: [string, string][]; data: Row[] }> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (!TYPES.includes(type)) throw new ApiError(400, { error: t(req.lang, 'file_type', { type: type || '-' }) });
  const buf = req.body as Buffer;
  let table: string[][];
  try {
    table = type === 'text/csv' ? parseCsv(decodeText(buf)) : await xlsxRows(buf);
  } catch {
    throw new ApiError(400, { error: rt(req.lang, 'file_empty') });
  }
  const [header, ...body] = table;
  const fields = (header ?? []).map((h) => fieldForHeader(def, h));
  if (!header || !fields.some(Boolean) || !body.length) throw new ApiError(400, { error: rt(req.lang, 'file_empty') });
  const title = header
    .map((h, i) => [h.replace(/^\*/, ''), fields[i]] as [string, string | undefined])
    .filter((t): t is [string, string] => Boolean(t[1]));
  const data = body.map((cells) => {
    const row: Row = {};
    fields.forEach((name, i) => {
      if (name) row[name] = fromCell(def.fields[name], cells[i] ?? '');
    });
    return row;
  });
  return { title, data };
}
