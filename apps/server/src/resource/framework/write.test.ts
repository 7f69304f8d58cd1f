import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { WIDGETS, createLinkTable, makeWidgets, widgetApp, type WidgetApp } from '../../../test-support/widgets.ts';

/** Writes through the resource framework: create, update, bulk, delete, and the audit rows each leaves. */
let w: WidgetApp;

beforeAll(async () => {
  w = await widgetApp();
}, 60_000);
afterAll(async () => w.t.close());

const detail = (id: string) => `${WIDGETS}${id}/`;
const patch = (url: string, payload: unknown) => w.admin.request({ method: 'PATCH', url, payload: payload as object });
const put = (url: string, payload: unknown) => w.admin.request({ method: 'PUT', url, payload: payload as object });
const del = (url: string) => w.admin.request({ method: 'DELETE', url });

async function operateLogs(resourceId: string) {
  return w.t.deps.database.db
    .selectFrom('audits_operatelog')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .orderBy('datetime')
    .execute();
}

describe('resource writes', () => {
  it('creates one object (201, defaults filled) and retrieves it', async () => {
    const res = await w.admin.post(WIDGETS, { name: ' single ', tags: [w.tags.red] });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({
      name: 'single',
      size: 1,
      is_active: true,
      kind: { value: 'small', label: 'Small' },
      level: 'low',
      meta: {},
      comment: '',
      org_id: DEFAULT_ORG_ID,
      created_by: 'Administrator(admin)',
      tags: [{ id: w.tags.red, name: 'red' }],
    });
    const got = await w.admin.get(detail(made.id));
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(made);
  });

  it('creates an array all or nothing, with errors per item in order', async () => {
    const bad = await w.admin.post(WIDGETS, [{ name: 'ok-1' }, { size: 3 }, { name: 'ok-2', kind: 'huge' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual([
      {},
      { name: ['This field is required.'] },
      { kind: ['"huge" is not a valid choice.'] },
    ]);
    expect((await w.admin.get(`${WIDGETS}?search=ok-`)).json()).toEqual([]);
    const good = await w.admin.post(WIDGETS, [{ name: 'ok-1' }, { name: 'ok-2' }]);
    expect(good.statusCode).toBe(201);
    expect(good.json().map((r: { name: string }) => r.name)).toEqual(['ok-1', 'ok-2']);
  });

  it('refuses a create in the global organisation', async () => {
    const res = await w.admin.post(WIDGETS, { name: 'nowhere' }, { 'x-jms-org': ROOT_ORG_ID });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Please save in a org'] });
  });

  it('answers 404 for an unknown id on every detail method', async () => {
    const url = detail('00000000-0000-0000-0000-00000000beef');
    for (const r of [await w.admin.get(url), await patch(url, { size: 2 }), await put(url, {}), await del(url)]) {
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ detail: 'Widget object does not exist.', code: 'object_does_not_exist' });
    }
  });

  it('PATCH changes only what was sent; PUT requires the required fields', async () => {
    const [id] = await makeWidgets(w, [{ name: 'patchme', size: 7, tags: [w.tags.red, w.tags.green] }]);
    const p = await patch(detail(id!), { size: 8, tags: [w.tags.blue] });
    expect(p.statusCode, p.body).toBe(200);
    expect(p.json()).toMatchObject({ name: 'patchme', size: 8, tags: [{ id: w.tags.blue, name: 'blue' }] });
    const missing = await put(detail(id!), { size: 9 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ name: ['This field is required.'] });
    const full = await put(detail(id!), { name: 'putme', size: 9 });
    expect(full.statusCode).toBe(200);
    expect(full.json()).toMatchObject({ name: 'putme', size: 9, tags: [{ id: w.tags.blue, name: 'blue' }] });
    // Read-only fields sent in a body are ignored.
    const ro = await patch(detail(id!), { summary: 'x', created_by: 'mallory', id: 'other' });
    expect(ro.json()).toMatchObject({ id, summary: 'putme#9', created_by: 'Administrator(admin)' });
  });

  it('keeps unique fields unique, but lets an object keep its own value', async () => {
    const [a] = await makeWidgets(w, [{ name: 'uniq-a', code: 'U1' }]);
    const dup = await w.admin.post(WIDGETS, { name: 'uniq-b', code: 'U1' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ code: ['widget with this code already exists.'] });
    expect((await patch(detail(a!), { code: 'U1', name: 'uniq-a2' })).statusCode).toBe(200);
  });

  it('bulk PATCH and PUT apply a list of objects by id, all or nothing', async () => {
    const [a, b] = await makeWidgets(w, [
      { name: 'bulk-a', size: 1 },
      { name: 'bulk-b', size: 2 },
    ]);
    const ok = await patch(WIDGETS, [
      { id: a, size: 11 },
      { id: b, size: 12 },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().map((r: { size: number }) => r.size)).toEqual([11, 12]);
    const bad = await patch(WIDGETS, [{ id: a, size: 21 }, { size: 3 }, { id: b, size: 'many' }, { id: 'nope' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual([
      {},
      { id: ['id or pk not in data'] },
      { size: ['A valid integer is required.'] },
      { id: ['Widget object does not exist.'] },
    ]);
    expect((await w.admin.get(detail(a!))).json().size).toBe(11);
    const full = await put(WIDGETS, [{ pk: a, size: 31 }]);
    expect(full.statusCode).toBe(400);
    expect(full.json()).toEqual([{ name: ['This field is required.'] }]);
    expect((await put(WIDGETS, [{ pk: a, name: 'bulk-a', size: 31 }])).json()[0].size).toBe(31);
    const notList = await patch(WIDGETS, { id: a, size: 1 });
    expect(notList.statusCode).toBe(400);
    expect(notList.json()).toHaveProperty('non_field_errors');
  });

  it('bulk writes stay inside the query filters and the organisation', async () => {
    const [a, b] = await makeWidgets(w, [
      { name: 'scope-a', kind: 'large' },
      { name: 'scope-b', kind: 'small' },
    ]);
    const outside = await patch(`${WIDGETS}?kind=large`, [{ id: b, size: 99 }]);
    expect(outside.statusCode).toBe(400);
    const org = (await w.admin.post('/api/v1/orgs/orgs/', { name: 'Bulk other' })).json().id;
    const foreign = await w.admin.request({
      method: 'PATCH',
      url: WIDGETS,
      payload: [{ id: a, size: 99 }],
      headers: { 'x-jms-org': org },
    });
    expect(foreign.statusCode).toBe(400);
    expect((await w.admin.get(detail(a!))).json().size).toBe(1);
  });

  it('deletes one object (204), then it is gone', async () => {
    const [id] = await makeWidgets(w, [{ name: 'delete-me', tags: [w.tags.red] }]);
    expect((await del(detail(id!))).statusCode).toBe(204);
    expect((await w.admin.get(detail(id!))).statusCode).toBe(404);
  });

  it('bulk delete needs spm or ids, and deletes only those within the filters', async () => {
    const [a, b, c] = await makeWidgets(w, [{ name: 'bd-a' }, { name: 'bd-b' }, { name: 'bd-c', kind: 'large' }]);
    const refused = await del(`${WIDGETS}?search=bd-`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      detail: 'Bulk delete needs the selected rows (spm or ids).',
      code: 'bulk_delete_needs_ids',
    });
    expect((await w.admin.get(`${WIDGETS}?search=bd-`)).json()).toHaveLength(3);
    expect((await del(`${WIDGETS}?ids=${a},${c}&kind=large`)).statusCode).toBe(204);
    expect((await w.admin.get(`${WIDGETS}?search=bd-`)).json().map((r: { id: string }) => r.id)).toEqual([a, b]);
    const spm = (await w.admin.post('/api/v1/common/resources/cache/', { resources: [b] })).json().spm;
    expect((await del(`${WIDGETS}?spm=${spm}`)).statusCode).toBe(204);
    expect((await w.admin.get(`${WIDGETS}?search=bd-`)).json().map((r: { id: string }) => r.id)).toEqual([a]);
  });

  it('writes an operate-log and an activity row per create, update and delete, with a field diff', async () => {
    const [id] = await makeWidgets(w, [{ name: 'audited', size: 3, kind: 'small', secret: 's3cret' }]);
    await patch(detail(id!), { size: 4, kind: 'large', secret: 'n3w' });
    await patch(detail(id!), { size: 4 }); // no change: no log
    await del(detail(id!));
    // Writes in one millisecond share a timestamp: put the rows in the order of their actions.
    const order = ['create', 'update', 'delete'];
    const logs = (await operateLogs(id!)).sort((a, b) => order.indexOf(a.action) - order.indexOf(b.action));
    expect(logs.map((l) => l.action)).toEqual(order);
    for (const l of logs) {
      expect(l).toMatchObject({ resource_type: 'widget', resource: 'audited', org_id: DEFAULT_ORG_ID });
      expect(l.user).toBe('Administrator(admin)');
    }
    const created = JSON.parse(logs[0]!.diff as string) as { field: string; before: string; after: string }[];
    expect(created).toContainEqual({ field: 'size', before: '', after: '3' });
    expect(created).toContainEqual({ field: 'secret', before: '', after: '******' });
    const updated = JSON.parse(logs[1]!.diff as string);
    expect(updated).toEqual([
      { field: 'size', before: '3', after: '4' },
      { field: 'kind', before: 'Small', after: 'Large' },
      { field: 'secret', before: '******', after: '******' },
    ]);
    expect(JSON.stringify(logs.map((l) => l.diff))).not.toMatch(/s3cret|n3w/);
    const activity = await w.t.deps.database.db
      .selectFrom('audits_activitylog')
      .selectAll()
      .where('resource_id', '=', id!)
      .orderBy('datetime')
      .execute();
    expect(activity).toHaveLength(3);
    expect(activity.map((a) => a.detail_id).sort()).toEqual(logs.map((l) => l.id).sort());
    expect(activity.every((a) => a.type === 'O' && a.username === 'admin')).toBe(true);
  });

  it('refuses invalid input before anything is written, audit rows included', async () => {
    const res = await w.admin.post(WIDGETS, { name: 'ghost', tags: ['00000000-0000-0000-0000-00000000f00d'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      tags: ['Invalid pk "00000000-0000-0000-0000-00000000f00d" - object does not exist.'],
    });
    expect(await w.db.selectFrom('audits_operatelog').select('id').where('resource', '=', 'ghost').execute()).toEqual(
      [],
    );
  });

  it('rolls a write that fails half-way back whole: no row, no link, no audit', async () => {
    await w.db.schema.dropTable('fw_widget_tags').execute();
    try {
      const res = await w.admin.post(WIDGETS, { name: 'half-way', tags: [w.tags.red] });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toMatch(/fw_widget_tags|at .*\.ts/);
    } finally {
      await createLinkTable(w.db);
    }
    expect(await w.db.selectFrom('fw_widget').select('id').where('name', '=', 'half-way').execute()).toEqual([]);
    expect(
      await w.db.selectFrom('audits_operatelog').select('id').where('resource', '=', 'half-way').execute(),
    ).toEqual([]);
  });
});
