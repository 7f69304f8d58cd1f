import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { fromCell } from './cells.ts';
import { decodeText, parseCsv } from './csv.ts';
import { rt } from './messages.ts';
import { t } from '../http/messages.ts';
import type { ResourceDef, Row } from './types.ts';
import { ImportLimitError, parseXlsx, type ImportLimits } from './xlsxParse.ts';

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

/** The table over a limit: the same limits as the XLSX worker's, for CSV. */
function checkCsv(rows: string[][], limits: ImportLimits): void {
  if (rows.length - 1 > limits.importRows) throw new ImportLimitError('rows', limits.importRows);
  rows.forEach((cells, i) => {
    if (cells.length > limits.importColumns) throw new ImportLimitError('columns', limits.importColumns);
    if (cells.some((c) => c.length > limits.importCellChars))
      throw new ImportLimitError('cell', limits.importCellChars, i + 1);
  });
}

function limitMessage(req: FastifyRequest, e: ImportLimitError): string {
  if (e.limit === 'unzipped') return rt(req.lang, 'import_unzipped', { max: Math.floor(e.max / 1024 / 1024) });
  if (e.limit === 'cell') return rt(req.lang, 'import_cell', { max: e.max, row: e.row ?? 0 });
  return rt(req.lang, e.limit === 'rows' ? 'import_rows' : 'import_columns', { max: e.max });
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
  const limits = req.server.deps.config.limits;
  try {
    if (type === 'text/csv') {
      table = parseCsv(decodeText(buf));
      checkCsv(table, limits);
    } else table = await parseXlsx(buf, limits);
  } catch (e) {
    if (e instanceof ImportLimitError) throw new ApiError(400, { error: limitMessage(req, e) });
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
