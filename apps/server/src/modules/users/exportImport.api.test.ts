import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../resource/csv.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** CSV/XLSX export, import templates and render-to-json parsing on the users resource. */
let t: TestApp;
let admin: SessionClient;
const U = '/api/v1/users/users/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  await admin.post('/api/v1/users/groups/', { name: 'ops' });
  const [g] = (await admin.get('/api/v1/users/groups/')).json();
  await admin.post(U, [
    {
      name: '=HYPERLINK("http://evil")',
      username: 'mallory',
      email: 'm@example.com',
      comment: '+1 sum',
      groups: [g.id],
    },
    { name: 'Bob', username: 'bob', email: 'bob@example.com', is_active: false },
  ]);
});
afterAll(async () => t.close());

const csvOf = (body: string) => parseCsv(body.replace(/^\uFEFF/, ''));

describe('export', () => {
  it('streams CSV with label headers, a BOM, and neutralised formulas', async () => {
    const res = await admin.get(`${U}?format=csv&order=username`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="user_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = csvOf(res.body);
    expect(header).toContain('*Username');
    expect(header).toContain('User group');
    expect(header).not.toContain('Password');
    expect(rows).toHaveLength(3);
    const col = (name: string) => header!.indexOf(name);
    const mallory = rows.find((r) => r[col('*Username')] === 'mallory')!;
    expect(mallory[col('*Name')]).toBe(`'=HYPERLINK("http://evil")`);
    expect(mallory[col('Comment')]).toBe(`'+1 sum`);
    expect(mallory[col('User group')]).toMatch(/^\["ops\([0-9a-f-]{36}\)"\]$/);
    expect(mallory[col('Source')]).toBe('local');
  });

  it('applies the list filters and the selected rows (spm)', async () => {
    const filtered = csvOf((await admin.get(`${U}?format=csv&is_active=false`)).body);
    expect(filtered.slice(1).map((r) => r[filtered[0]!.indexOf('*Username')])).toEqual(['bob']);
    const [bob] = (await admin.get(`${U}?username=bob`)).json();
    const { spm } = (await admin.post('/api/v1/common/resources/cache/', { resources: [bob.id] })).json();
    expect(csvOf((await admin.get(`${U}?format=csv&spm=${spm}`)).body)).toHaveLength(2);
  });

  it('exports XLSX that a spreadsheet library reads back', async () => {
    const res = await admin.request({ method: 'GET', url: `${U}?format=xlsx&order=username` });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(4);
    const header = (sheet.getRow(1).values as string[]).slice(1);
    expect(header).toContain('*Email');
  });

  it('gives import templates: without ID for create, with ID for update', async () => {
    const create = csvOf((await admin.get(`${U}?format=csv&template=import`)).body);
    expect(create[0]).not.toContain('ID');
    expect(create[0]).toContain('Password');
    expect(create.length).toBeLessThanOrEqual(2);
    const update = csvOf((await admin.get(`${U}?format=csv&template=update`)).body);
    expect(update[0]).toContain('ID');
  });
});

describe('render-to-json', () => {
  const parse = (body: string | Buffer, type = 'text/csv') =>
    admin.request({ method: 'POST', url: `${U}render-to-json/`, payload: body, headers: { 'content-type': type } });

  it('maps headers by label or name and converts cells', async () => {
    const [g] = (await admin.get('/api/v1/users/groups/')).json();
    const csv = `*Name,username,*Email,User group,Active,Comment\r\nCarol,carol,carol@example.com,"[""ops(${g.id})""]",No,-\r\n`;
    const res = await parse(csv);
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toEqual([
      ['Name', 'name'],
      ['username', 'username'],
      ['Email', 'email'],
      ['User group', 'groups'],
      ['Active', 'is_active'],
      ['Comment', 'comment'],
    ]);
    expect(res.json().data).toEqual([
      {
        name: 'Carol',
        username: 'carol',
        email: 'carol@example.com',
        groups: [{ pk: g.id, name: 'ops' }],
        is_active: false,
        comment: null,
      },
    ]);
  });

  it('round-trips an exported file', async () => {
    const exported = (await admin.get(`${U}?format=csv&template=update&username=bob`)).body;
    const res = await parse(exported);
    const [row] = res.json().data;
    expect(row.username).toBe('bob');
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    const back = await admin.request({
      method: 'PATCH',
      url: `${U}${row.id}/`,
      payload: { name: row.name, email: row.email, comment: 'reimported' },
    });
    expect(back.statusCode).toBe(200);
  });

  it('reads XLSX uploads', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Users').addRows([
      ['*Name', '*Username', '*Email'],
      ['Dan', 'dan', 'dan@example.com'],
    ]);
    const buf = Buffer.from(await book.xlsx.writeBuffer());
    const res = await parse(buf, 'text/xlsx');
    expect(res.json().data).toEqual([{ name: 'Dan', username: 'dan', email: 'dan@example.com' }]);
  });

  it('refuses other types, empty files and files over 30 MB with a message that says so', async () => {
    const json = await parse('{}', 'application/json');
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toMatch(/Unsupported file type "application\/json"/);
    const empty = await parse('nothing,here\r\n');
    expect(empty.json()).toEqual({ error: 'Request file format may be wrong' });
    const big = await parse(Buffer.alloc(31 * 1024 * 1024, 'a'));
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toBe('The file is larger than 30 MB: split it into smaller files.');
  });
});
