import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';

/**
 * Import parsing (render-to-json) keeps the server serving and stays within its limits: a large
 * XLSX is read in a worker thread while other requests are answered, and a file over the rows,
 * columns, cell size or unpacked size limit is refused with a 400 that names the limit.
 */
const U = '/api/v1/users/users/render-to-json/';
const HEADER = ['*Name', '*Username', '*Email'];

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Users').addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A big sheet written by exceljs's streaming writer (without shared strings, as our export writes). */
async function bigXlsx(n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const { PassThrough } = await import('node:stream');
  const out = new PassThrough();
  out.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = book.addWorksheet('Users');
  sheet.addRow(HEADER).commit();
  for (let i = 0; i < n; i++) sheet.addRow([`User ${i}`, `user${i}`, `user${i}@example.com`]).commit();
  sheet.commit();
  await book.commit();
  return Buffer.concat(chunks);
}

describe('a 100k-row XLSX import', () => {
  let t: TestApp;
  let admin: SessionClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminClient(t.app);
  });
  afterAll(() => t.close());

  it('is parsed whole while /api/health/ keeps answering', { timeout: 180_000 }, async () => {
    const file = await bigXlsx(100_000);
    let parsing = true;
    const parse = admin
      .request({ method: 'POST', url: U, payload: file, headers: { 'content-type': 'text/xlsx' } })
      .finally(() => (parsing = false));
    let answeredWhileParsing = 0;
    while (parsing) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health/' });
      expect(health.statusCode).toBe(200);
      if (parsing) answeredWhileParsing++;
      await new Promise((r) => setTimeout(r, 20));
    }
    const res = await parse;
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const data = res.json().data as { username: string }[];
    expect(data).toHaveLength(100_000);
    expect(data[99_999]).toMatchObject({ username: 'user99999', email: 'user99999@example.com' });
    expect(answeredWhileParsing).toBeGreaterThan(1);
  });
});

describe('import limits', () => {
  let t: TestApp;
  let admin: SessionClient;
  beforeAll(async () => {
    t = await createTestApp({
      IMPORT_MAX_ROWS: '3',
      IMPORT_MAX_COLUMNS: '4',
      IMPORT_MAX_CELL_CHARS: '40',
      IMPORT_MAX_UNZIPPED_BYTES: String(1024 * 1024),
    });
    admin = await adminClient(t.app);
  });
  afterAll(() => t.close());

  const post = (payload: Buffer | string, type: string, lang = 'en') =>
    admin.request({ method: 'POST', url: U, payload, headers: { 'content-type': type, 'accept-language': lang } });
  const user = (i: number) => [`User ${i}`, `user${i}`, `user${i}@example.com`];

  it('accepts a file within every limit', async () => {
    const res = await post(await xlsx([HEADER, user(1), user(2), user(3)]), 'text/xlsx');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(3);
  });

  it('refuses more rows than IMPORT_MAX_ROWS, in XLSX and CSV, in the caller’s language', async () => {
    const rows = [HEADER, user(1), user(2), user(3), user(4)];
    const x = await post(await xlsx(rows), 'text/xlsx');
    expect(x.statusCode).toBe(400);
    expect(x.json().error).toBe('The file has more than 3 rows: split it into smaller files.');
    const c = await post(rows.map((r) => r.join(',')).join('\r\n'), 'text/csv', 'zh-CN');
    expect(c.statusCode).toBe(400);
    expect(c.json().error).toBe('文件超过 3 行：请拆分为更小的文件。');
  });

  it('refuses more columns than IMPORT_MAX_COLUMNS', async () => {
    const res = await post(
      await xlsx([
        [...HEADER, 'Comment', 'Extra'],
        [...user(1), 'c', 'e'],
      ]),
      'text/xlsx',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The file has more than 4 columns.');
  });

  it('refuses a cell longer than IMPORT_MAX_CELL_CHARS, naming its row', async () => {
    const res = await post(await xlsx([HEADER, user(1), ['x'.repeat(41), 'u', 'u@example.com']]), 'text/xlsx', 'ja');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('3 行目に 40 文字を超えるセルがあります。');
  });

  it('refuses a zip bomb: a small file that unpacks past IMPORT_MAX_UNZIPPED_BYTES', async () => {
    // 2 MB of one repeated letter compresses to a few KB: the unpacked size is checked first.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Users');
    sheet.addRows([HEADER, user(1)]);
    sheet.getCell('A3').value = 'y'.repeat(2 * 1024 * 1024);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    expect(file.length).toBeLessThan(100 * 1024);
    const res = await post(file, 'text/xlsx');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The file expands to more than 1 MB when unpacked: split it into smaller files.');
  });
});
