import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { WIDGETS, makeWidgets, widgetApp, type WidgetApp } from '../../../test-support/widgets.ts';

/** List parameters of the resource framework (search, order, filters, dates, pages, spm, ids), on a test resource. */
let w: WidgetApp;
let ids: Record<string, string>;

type Item = { id: string; name: string };
const names = (body: unknown) => (body as Item[]).map((r) => r.name);
const list = async (qs: string) => {
  const res = await w.admin.get(`${WIDGETS}?${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  w = await widgetApp();
  const made = await makeWidgets(w, [
    { name: 'alpha one', code: 'x1', size: 5, kind: 'small', starts_at: '2024-01-10T00:00:00Z', category: w.tags.red },
    { name: 'alpha two', code: 'y2', size: 15, kind: 'large', starts_at: '2024-02-10T00:00:00Z', is_active: false },
    { name: 'beta', code: 'x3', size: 10, kind: 'large', starts_at: '2024-03-10T00:00:00Z', category: w.tags.blue },
    { name: 'under_score', code: 'z4', size: 20, starts_at: '2024-03-10T12:00:00Z' },
  ]);
  ids = { a1: made[0]!, a2: made[1]!, b: made[2]!, u: made[3]! };
}, 60_000);
afterAll(async () => w.t.close());

describe('resource list', () => {
  it('answers a plain array without limit, ordered by the default order', async () => {
    expect(names(await list(''))).toEqual(['alpha one', 'alpha two', 'beta', 'under_score']);
    expect(names(await list('limit=0'))).toHaveLength(4);
    expect(names(await list('limit=abc'))).toHaveLength(4);
  });

  it('searches every term in any searchable field (AND of ORs), case-insensitively', async () => {
    expect(names(await list('search=x'))).toEqual(['alpha one', 'beta']);
    expect(names(await list('search=ALPHA'))).toEqual(['alpha one', 'alpha two']);
    expect(names(await list('search=alpha%20x'))).toEqual(['alpha one']);
    expect(names(await list('search=alpha,y2'))).toEqual(['alpha two']);
    expect(names(await list('search=alpha%20nothing'))).toEqual([]);
  });

  it('treats LIKE wildcards in a search as plain characters', async () => {
    expect(names(await list('search=_'))).toEqual(['under_score']);
    expect(names(await list('search=%25'))).toEqual([]);
  });

  it('orders by orderable fields asc and desc, ignoring unknown or unorderable ones', async () => {
    expect(names(await list('order=size'))).toEqual(['alpha one', 'beta', 'alpha two', 'under_score']);
    expect(names(await list('order=-size'))).toEqual(['under_score', 'alpha two', 'beta', 'alpha one']);
    expect(names(await list('order=-name'))).toEqual(['under_score', 'beta', 'alpha two', 'alpha one']);
    expect(names(await list('order=nope'))).toEqual(['alpha one', 'alpha two', 'beta', 'under_score']);
    expect(names(await list('order=-code'))).toEqual(['alpha one', 'alpha two', 'beta', 'under_score']);
  });

  it('filters by declared fields: choice, boolean, integer, text, foreign key', async () => {
    expect(names(await list('kind=large'))).toEqual(['alpha two', 'beta']);
    expect(names(await list('is_active=false'))).toEqual(['alpha two']);
    expect(names(await list('is_active=1'))).toHaveLength(3);
    expect(names(await list('size=10'))).toEqual(['beta']);
    expect(names(await list('code=z4'))).toEqual(['under_score']);
    expect(names(await list(`category=${w.tags.blue}`))).toEqual(['beta']);
    expect(names(await list('kind=large&size=15'))).toEqual(['alpha two']);
    // Not a declared filter: ignored, as DRF's filter backends do.
    expect(names(await list('level=high'))).toHaveLength(4);
  });

  it('refuses a filter value of the wrong type with a 400 naming the parameter', async () => {
    const bool = await w.admin.get(`${WIDGETS}?is_active=maybe`);
    expect(bool.statusCode).toBe(400);
    expect(bool.json()).toEqual({ is_active: ['Must be a valid boolean.'] });
    const int = await w.admin.get(`${WIDGETS}?size=ten`, { 'accept-language': 'zh-CN,zh;q=0.9' });
    expect(int.statusCode).toBe(400);
    expect(int.json()).toEqual({ size: ['请填写合法的整数值。'] });
  });

  it('filters the date range inclusively and refuses a malformed date', async () => {
    expect(names(await list('date_from=2024-02-10T00:00:00Z'))).toEqual(['alpha two', 'beta', 'under_score']);
    expect(names(await list('date_to=2024-02-10T00:00:00Z'))).toEqual(['alpha one', 'alpha two']);
    expect(names(await list('date_from=2024/02/01%2000:00:00%20%2B0000&date_to=2024-03-10'))).toEqual([
      'alpha two',
      'beta',
    ]);
    const bad = await w.admin.get(`${WIDGETS}?date_from=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['date_from']);
  });

  it('pages with limit and offset, with absolute next/previous links', async () => {
    const p1 = await list('limit=2&order=size');
    expect(p1.count).toBe(4);
    expect(names(p1.results)).toEqual(['alpha one', 'beta']);
    expect(p1.previous).toBeNull();
    const next = new URL(p1.next);
    expect(next.pathname).toBe(WIDGETS);
    expect(Object.fromEntries(next.searchParams)).toEqual({ limit: '2', offset: '2', order: 'size' });
    const p2 = await list('limit=2&offset=2&order=size');
    expect(names(p2.results)).toEqual(['alpha two', 'under_score']);
    expect(p2.next).toBeNull();
    expect(new URL(p2.previous).searchParams.get('offset')).toBeNull();
    const past = await list('limit=2&offset=10');
    expect(past).toMatchObject({ count: 4, results: [], next: null });
    // The count follows the filters.
    expect((await list('limit=1&kind=large')).count).toBe(2);
  });

  it('narrows to selected rows by ids, by spm, and excludes with id!', async () => {
    expect(names(await list(`ids=${ids.a1},${ids.b}`))).toEqual(['alpha one', 'beta']);
    expect(names(await list(`id!=${ids.a1},${ids.b}`))).toEqual(['alpha two', 'under_score']);
    expect(names(await list(`id=${ids.u}`))).toEqual(['under_score']);
    // Empty lists select nothing (ids) or exclude nothing (id!), never an SQL error.
    expect(names(await list('ids=,'))).toEqual([]);
    expect(names(await list('id!=,'))).toHaveLength(4);
    const spm = (await w.admin.post('/api/v1/common/resources/cache/', { resources: [ids.a2, ids.u] })).json().spm;
    expect(names(await list(`spm=${spm}`))).toEqual(['alpha two', 'under_score']);
    expect(names(await list(`spm=${spm}&search=under`))).toEqual(['under_score']);
    expect(names(await list('spm=00000000-0000-0000-0000-00000000dead'))).toEqual([]);
  });

  it('outputs only the fields asked for', async () => {
    expect((await list(`ids=${ids.b}&fields_size=mini`))[0]).toEqual({
      id: ids.b,
      name: 'beta',
      org_id: expect.any(String),
      org_name: expect.any(String),
    });
    const [one] = await list(`ids=${ids.b}&fields=name,size`);
    expect(Object.keys(one).sort()).toEqual(['name', 'org_id', 'org_name', 'size']);
    const [dropped] = await list(`ids=${ids.b}&fields!=meta,tags`);
    expect(dropped).not.toHaveProperty('meta');
    expect(dropped).toHaveProperty('summary', 'beta#10');
  });

  it('shows an organisation only its own rows; the global org sees all', async () => {
    const org = (await w.admin.post('/api/v1/orgs/orgs/', { name: 'Other org' })).json().id;
    const other = await w.admin.get(WIDGETS, { 'x-jms-org': org });
    expect(other.json()).toEqual([]);
    expect((await w.admin.get(`${WIDGETS}${ids.b}/`, { 'x-jms-org': org })).statusCode).toBe(404);
    await w.admin.post(WIDGETS, { name: 'elsewhere' }, { 'x-jms-org': org });
    expect(names(await list(''))).not.toContain('elsewhere');
    const root = await w.admin.get(WIDGETS, { 'x-jms-org': ROOT_ORG_ID });
    expect(names(root.json())).toContain('elsewhere');
    expect(names(root.json())).toHaveLength(5);
  });

  it('caps a page at 100 rows', async () => {
    await makeWidgets(
      w,
      Array.from({ length: 101 }, (_, i) => ({ name: `bulk-${String(i).padStart(3, '0')}` })),
    );
    const page = await list('search=bulk-&limit=500');
    expect(page.count).toBe(101);
    expect(page.results).toHaveLength(100);
    expect(new URL(page.next).searchParams.get('limit')).toBe('100');
    expect(names(await list('search=bulk-'))).toHaveLength(101);
  });
});
