// Parses the first sheet of an XLSX off the event loop (see xlsxParse.ts, which starts this worker).
// Plain JavaScript on purpose: a worker thread does not inherit the TypeScript loader of every runner
// (tsx in production, Vite in vitest), while an .mjs file loads the same under all of them.
import { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';

/** A refusal the caller turns into a 400: `{code, max}`. */
class Limit extends Error {
  constructor(code, max, at) {
    super(code);
    this.code = code;
    this.max = max;
    this.at = at;
  }
}

/**
 * Inflates every entry of the zip with a budget on the total output (zlib stops at
 * maxOutputLength whatever the headers claim), so a zip bomb is refused before any XML is parsed.
 */
function checkUnzippedSize(buf, budget) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file');
  const entries = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  let left = budget;
  for (let n = 0; n < entries; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    if (buf.readUInt32LE(local) !== 0x04034b50) throw new Error('bad local header');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + compressed);
    let size;
    if (method === 0) size = data.length;
    else if (method === 8) {
      try {
        size = inflateRawSync(data, { maxOutputLength: left + 1 }).length;
      } catch (e) {
        if (e instanceof RangeError || e.code === 'ERR_BUFFER_TOO_LARGE') throw new Limit('unzipped', budget);
        throw e;
      }
    } else throw new Error(`unsupported compression ${method}`);
    left -= size;
    if (left < 0) throw new Limit('unzipped', budget);
    p += 46 + nameLen + extraLen + commentLen;
  }
}

function cellText(v) {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    if ('text' in v) return String(v.text);
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return cellText(v.result);
    return '';
  }
  return String(v);
}

async function parse(buf, limits) {
  checkUnzippedSize(buf, limits.importUnzippedBytes);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buf]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const rows = [];
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const cells = [];
      // row.values is 1-based and sparse: linear in the row's cells, whatever the sheet's width.
      const values = row.values;
      if (values.length - 1 > limits.importColumns) throw new Limit('columns', limits.importColumns);
      for (let i = 1; i < values.length; i++) {
        const s = cellText(values[i]);
        if (s.length > limits.importCellChars) throw new Limit('cell', limits.importCellChars, rows.length + 1);
        cells.push(s);
      }
      if (!cells.some((c) => c.trim() !== '')) continue;
      // The header row is not counted.
      if (rows.length > limits.importRows) throw new Limit('rows', limits.importRows);
      rows.push(cells);
    }
    break; // the first sheet only
  }
  return rows;
}

const { buffer, limits } = workerData;
parse(Buffer.from(buffer), limits).then(
  (rows) => parentPort.postMessage({ rows }),
  (e) =>
    parentPort.postMessage(
      e instanceof Limit ? { limit: { code: e.code, max: e.max, at: e.at } } : { error: String(e?.message ?? e) },
    ),
);
