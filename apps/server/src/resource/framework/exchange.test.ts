import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { parseCsv } from '../csv.ts';
import { WIDGETS, makeWidgets, widgetApp, type WidgetApp } from '../../../test-support/widgets.ts';

/** CSV/XLSX export, import templates and render-to-json of the resource framework. */
let w: WidgetApp;
let ids: string[];

beforeAll(async () => {
  w = await widgetApp();
  ids = await makeWidgets(w, [
    {
      name: '=HYPERLINK("http://evil")',
      code: 'E1',
      size: 3,
      is_active: false,
      kind: 'large',
      category: w.tags.green,
      tags: [w.tags.red, w.tags.blue],
      comment: '-2+3',
      secret: 'never-exported',
      aliases: ['a', 'b'],
    },
    { name: 'plain, "quoted"', code: 'P1', comment: '@SUM(A1)', meta: { k: 'v' } },
    { name: 'zz last', comment: '-' },
  ]);
}, 60_000);
afterAll(async () => w.t.close());

async function csvOf(qs: string, headers: Record<string, string> = {}) {
  const res = await w.admin.get(`${WIDGETS}?format=csv&${qs}`, headers);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="widget_[\d_-]+\.csv"$/);
  expect(res.body.startsWith('\uFEFF')).toBe(true);
  return parseCsv(res.body.slice(1));
}

async function xlsxOf(qs: string): Promise<string[][]> {
  const res = await w.admin.get(`${WIDGETS}?format=xlsx&${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-disposition']).toMatch(/filename="widget_[\d_-]+\.xlsx"$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}

const col = (table: string[][], header: string) => table.map((r) => r[table[0]!.indexOf(header)]);

describe('export', () => {
  it('writes labels as headers (* on required), values as a person reads them, in list order', async () => {
    const table = await csvOf('');
    expect(table[0]).toEqual([
      'ID',
      '*Name',
      'Code',
      'Size',
      'Active',
      'Kind',
      'Level',
      'Starts at',
      'Category',
      'Tags',
      'Meta',
      'Aliases',
      'Contact',
      'Summary',
      'Comment',
      'Created by',
      'Date created',
      'Date updated',
    ]);
    expect(table).toHaveLength(4);
    expect(col(table, 'ID').slice(1)).toEqual([ids[0], ids[1], ids[2]]);
    const first = table[1]!;
    const at = (h: string) => first[table[0]!.indexOf(h)];
    expect(at('Active')).toBe('No');
    expect(at('Kind')).toBe('large');
    expect(at('Category')).toBe(`green(${w.tags.green})`);
    expect(JSON.parse(at('Tags')!)).toEqual([`blue(${w.tags.blue})`, `red(${w.tags.red})`]);
    expect(at('Aliases')).toBe('["a","b"]');
    expect(at('Starts at')).toBe('-');
    expect(table[2]![table[0]!.indexOf('Meta')]).toBe('{"k":"v"}');
    expect(JSON.stringify(table)).not.toContain('never-exported');
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const table = await csvOf('');
    expect(col(table, '*Name').slice(1)).toEqual(['\'=HYPERLINK("http://evil")', 'plain, "quoted"', 'zz last']);
    expect(col(table, 'Comment').slice(1)).toEqual(["'-2+3", "'@SUM(A1)", '-']);
  });

  it('follows the list filters, spm and the caller’s language', async () => {
    expect((await csvOf('kind=large')).slice(1).map((r) => r[0])).toEqual([ids[0]]);
    const spm = (await w.admin.post('/api/v1/common/resources/cache/', { resources: [ids[2]] })).json().spm;
    expect((await csvOf(`spm=${spm}`)).slice(1).map((r) => r[0])).toEqual([ids[2]]);
    const zh = await csvOf(`ids=${ids[0]}`, { 'accept-language': 'zh-CN' });
    expect(zh[0]!.slice(0, 5)).toEqual(['ID', '*名称', '编码', '尺寸', '激活']);
    expect(zh[1]![4]).toBe('否');
  });

  it('writes the same table as XLSX', async () => {
    const rows = await xlsxOf('order=-size');
    expect(rows[0]!.slice(0, 3)).toEqual(['ID', '*Name', 'Code']);
    expect(rows.map((r) => r[1])).toEqual(['*Name', '\'=HYPERLINK("http://evil")', 'plain, "quoted"', 'zz last']);
    expect(rows[1]![rows[0]!.indexOf('Active')]).toBe('No');
    expect(rows.length).toBe(4);
  });
});

describe('import templates and render-to-json', () => {
  it('offers an import template of the writable fields with at most one example row', async () => {
    const table = await csvOf('template=import');
    expect(table[0]).toEqual([
      '*Name',
      'Code',
      'Size',
      'Active',
      'Kind',
      'Level',
      'Starts at',
      'Category',
      'Tags',
      'Meta',
      'Aliases',
      'Contact',
      'Comment',
    ]);
    expect(table.length).toBe(2);
    const update = await csvOf('template=update');
    expect(update[0]![0]).toBe('ID');
    expect(update.length).toBe(4);
  });

  it('turns an exported update template back into API values, by label or field name', async () => {
    const csv = (await w.admin.get(`${WIDGETS}?format=csv&template=update&ids=${ids[0]}`)).body;
    const res = await w.admin.post(`${WIDGETS}render-to-json/`, csv, { 'content-type': 'text/csv' });
    expect(res.statusCode, res.body).toBe(200);
    const { title, data } = res.json();
    expect(title[0]).toEqual(['ID', 'id']);
    expect(title[1]).toEqual(['Name', 'name']);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      id: ids[0],
      name: '=HYPERLINK("http://evil")',
      size: 3,
      is_active: false,
      kind: 'large',
      category: { pk: w.tags.green, name: 'green' },
      tags: [
        { pk: w.tags.blue, name: 'blue' },
        { pk: w.tags.red, name: 'red' },
      ],
      comment: '-2+3',
      starts_at: null,
    });
    // What render-to-json gives is accepted by a bulk update as is.
    const back = await w.admin.request({ method: 'PUT', url: WIDGETS, payload: data });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()[0]).toMatchObject({
      name: '=HYPERLINK("http://evil")',
      tags: [{ name: 'blue' }, { name: 'red' }],
    });
  });

  it('reads a hand-written CSV with field names and Chinese labels, and an XLSX upload', async () => {
    const csv = 'name,尺寸,is_active,unknown\r\nfrom csv,7,是,ignored\r\n';
    const res = await w.admin.post(`${WIDGETS}render-to-json/`, csv, { 'content-type': 'text/csv' });
    expect(res.json()).toEqual({
      title: [
        ['name', 'name'],
        ['尺寸', 'size'],
        ['is_active', 'is_active'],
      ],
      data: [{ name: 'from csv', size: 7, is_active: true }],
    });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('w');
    sheet.addRow(['*Name', 'Kind']);
    sheet.addRow(['from xlsx', 'small']);
    const buf = Buffer.from(await book.xlsx.writeBuffer());
    const x = await w.admin.post(`${WIDGETS}render-to-json/`, buf, { 'content-type': 'text/xlsx' });
    expect(x.statusCode, x.body).toBe(200);
    expect(x.json().data).toEqual([{ name: 'from xlsx', kind: 'small' }]);
  });

  it('answers 400 for a file it cannot read or a type it does not take', async () => {
    const empty = await w.admin.post(`${WIDGETS}render-to-json/`, 'nothing,known\r\n', { 'content-type': 'text/csv' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: 'Request file format may be wrong' });
    const junk = await w.admin.post(`${WIDGETS}render-to-json/`, Buffer.from('not a zip'), {
      'content-type': 'text/xlsx',
    });
    expect(junk.statusCode).toBe(400);
    const json = await w.admin.post(`${WIDGETS}render-to-json/`, { name: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toHaveProperty('error');
  });
});
