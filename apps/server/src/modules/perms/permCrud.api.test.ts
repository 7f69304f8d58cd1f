import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeAsset, makeNode, makePerm, makeUser, PERMS, type Row } from '../../../test-support/perms.ts';
import { notifyExpiringPermissions } from './expiryNotices.ts';

/** Asset permissions: the resource, its fields, defaults, validation and filters (issue 15). */
let t: TestApp;
let admin: SessionClient;
let orgB: string;
const EN = { 'accept-language': 'en' };
const u: Record<string, Row> = {};
let group: Row;
let nodeA: Row;
let nodeAB: Row;
let asset: Row;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Perm org B' })).json().id;
  for (const n of ['alice', 'bob']) u[n] = await makeUser(admin, n);
  u.bert = await makeUser(admin, 'bert', orgB);
  group = (await admin.post('/api/v1/users/groups/', { name: 'Ops', users: [u.bob!.id] })).json();
  nodeA = await makeNode(admin, 'A');
  nodeAB = await makeNode(admin, 'A/B');
  asset = await makeAsset(admin, [nodeAB.id], DEFAULT_ORG_ID, 'web-1');
});
afterAll(async () => t.close());

describe('asset permissions', () => {
  it('creates a permission with the contract defaults and answers its shape', async () => {
    const res = await admin.post(PERMS, { name: 'p1', users: [u.alice!.id] }, EN);
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({
      name: 'p1',
      users: [{ id: u.alice!.id, name: 'alice' }],
      user_groups: [],
      assets: [],
      nodes: [],
      accounts: ['@ALL'],
      is_active: true,
      is_valid: true,
      is_expired: false,
      from_ticket: false,
      users_amount: 1,
      user_groups_amount: 0,
      assets_amount: 0,
      nodes_amount: 0,
      org_id: DEFAULT_ORG_ID,
    });
    expect(p.actions.map((a: Row) => a.value)).toEqual(['connect', 'upload', 'download', 'copy', 'paste', 'delete']);
    expect(p.actions[0].label).toBe('Connect (All protocols)');
    const years =
      (Date.parse(
        p.date_expired
          .replace(/\//g, '-')
          .replace(' ', 'T')
          .replace(/ ([+-]\d\d)(\d\d)$/, '$1:$2'),
      ) -
        Date.now()) /
      (365.25 * 86400e3);
    expect(Math.round(years)).toBe(70);
  });

  it('takes actions as names, groups of the tree, "all" or {value}, and shows the tree in OPTIONS', async () => {
    const p = await makePerm(admin, { actions: ['connect', { value: 'download' }, 'clipboard'] });
    expect(p.actions.map((a: Row) => a.value)).toEqual(['connect', 'download', 'copy', 'paste']);
    const all = await makePerm(admin, { actions: 'all' });
    expect(all.actions).toHaveLength(6);
    const bad = await admin.post(PERMS, { name: 'bad actions', actions: ['fly'] }, EN);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().actions[0]).toBe('"fly" is not a valid action.');
    const opts = (await admin.request({ method: 'OPTIONS', url: PERMS, headers: EN })).json();
    const f = opts.actions.POST.actions;
    expect(f.type).toBe('tree');
    expect(f.tree.map((n: Row) => n.value)).toEqual(['connect', 'transfer', 'clipboard']);
    expect(f.tree[1].children.map((n: Row) => n.value)).toEqual(['upload', 'download', 'delete']);
  });

  it('refuses users, groups, assets and nodes of another org, and expiry before start', async () => {
    const other = await makeNode(admin, 'Other', orgB);
    for (const [field, id] of [
      ['users', u.bert!.id],
      ['nodes', other.id],
    ] as const) {
      const res = await admin.post(PERMS, { name: `x-${field}`, [field]: [id] }, EN);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()[field][0]).toContain(id);
    }
    const res = await admin.post(
      PERMS,
      { name: 'dates', date_start: '2030-01-02T00:00:00Z', date_expired: '2030-01-01T00:00:00Z' },
      EN,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().date_expired[0]).toBe('The expiry date must be later than the start date.');
    const tpl = await admin.post(PERMS, { name: 'tpl', accounts: ['%00000000-0000-0000-0000-000000000000'] }, EN);
    expect(tpl.statusCode).toBe(400);
  });

  it('filters by user (with groups under all), node and asset (with ancestors under all), accounts, validity', async () => {
    const viaGroup = await makePerm(admin, { name: 'f-group', user_groups: [group.id], nodes: [nodeA.id] });
    const direct = await makePerm(admin, { name: 'f-bob', users: [u.bob!.id], assets: [asset.id], accounts: ['root'] });
    const expired = await makePerm(admin, {
      name: 'f-expired',
      users: [u.bob!.id],
      date_start: '2020-01-01T00:00:00Z',
      date_expired: '2021-01-01T00:00:00Z',
    });
    const names = async (q: string) => ((await admin.get(`${PERMS}?${q}`)).json() as Row[]).map((p) => p.name).sort();
    expect(await names(`user_id=${u.bob!.id}`)).toEqual(['f-bob', 'f-expired', 'f-group']);
    expect(await names(`user_id=${u.bob!.id}&all=0`)).toEqual(['f-bob', 'f-expired']);
    expect(await names(`username=bob&is_valid=1`)).toEqual(['f-bob', 'f-group']);
    expect(await names(`is_valid=0`)).toEqual(['f-expired']);
    expect(await names(`asset_id=${asset.id}`)).toEqual(['f-bob', 'f-group']);
    expect(await names(`asset_id=${asset.id}&all=0`)).toEqual(['f-bob']);
    expect(await names(`node_id=${nodeAB.id}`)).toEqual(['f-group']);
    expect(await names(`node_id=${nodeAB.id}&all=0`)).toEqual([]);
    expect(await names(`node_name=A&all=0`)).toEqual(['f-group']);
    expect(await names(`asset_name=web-1&all=0`)).toEqual(['f-bob']);
    expect(await names(`user_group=Ops`)).toEqual(['f-group']);
    expect((await names(`accounts=root`)).includes('f-bob')).toBe(true);
    expect((await names(`accounts=nobody`)).includes('f-bob')).toBe(false);
    expect(await names(`is_effective=1&name=f-group`)).toEqual(['f-group']);
    expect(viaGroup.id && direct.id && expired.is_expired).toBe(true);
  });

  it('lists only the current org, exports and updates in bulk', async () => {
    await makePerm(admin, { name: 'in-b' }, orgB);
    const list: Row[] = (await admin.get(PERMS)).json();
    expect(list.some((p) => p.name === 'in-b')).toBe(false);
    const csv = await admin.get(`${PERMS}?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('p1');
    const ids = list.slice(0, 2).map((p) => p.id);
    const res = await admin.request({
      method: 'PATCH',
      url: PERMS,
      payload: ids.map((id) => ({ id, is_active: false, actions: ['connect'] })),
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const id of ids) {
      const p = (await admin.get(`${PERMS}${id}/`)).json();
      expect(p.is_active).toBe(false);
      expect(p.is_valid).toBe(false);
      expect(p.actions).toEqual([{ value: 'connect', label: 'Connect (All protocols)' }]);
    }
  });
});

describe('import', () => {
  it('imports the rows of its own export (relations by name(id), actions and accounts as lists)', async () => {
    const src = await makePerm(admin, {
      name: 'to export',
      users: [u.alice!.id],
      nodes: [nodeA.id],
      accounts: ['root', '@INPUT'],
      actions: ['connect', 'copy'],
    });
    const csv = (await admin.get(`${PERMS}?format=csv&name=to export`)).body;
    const parsed = await admin.post(`${PERMS}render-to-json/`, csv.replace('to export', 'imported'), {
      'content-type': 'text/csv',
    });
    expect(parsed.statusCode, parsed.body).toBe(200);
    const rows = (parsed.json().data as Row[]).map(({ id: _id, ...rest }) => rest);
    const res = await admin.post(PERMS, rows);
    expect(res.statusCode, res.body).toBe(201);
    const got = res.json()[0];
    expect(got).toMatchObject({
      name: 'imported',
      users: [{ id: u.alice!.id }],
      nodes: [{ id: nodeA.id }],
      accounts: ['@INPUT', 'root'],
    });
    expect(got.actions.map((x: Row) => x.value)).toEqual(['connect', 'copy']);
    expect(src.id).not.toBe(got.id);
  });
});

describe('expiry notices', () => {
  const messagesOf = async (userId: string) =>
    t.deps.database.db
      .selectFrom('notifications_sitemessage as m')
      .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
      .select(['c.subject', 'c.message'])
      .where('m.user_id', '=', userId)
      .execute();

  it('sends users (direct and through groups) one site message when a permission nears its expiry', async () => {
    const soon = new Date(Date.now() + 2 * 86400e3).toISOString();
    const carl = await makeUser(admin, 'carl');
    const grp = (await admin.post('/api/v1/users/groups/', { name: 'Expiring', users: [u.alice!.id] })).json();
    const p = await makePerm(admin, {
      name: 'expires soon',
      users: [carl.id],
      user_groups: [grp.id],
      date_expired: soon,
    });
    await makePerm(admin, {
      name: 'expires later',
      users: [carl.id],
      date_expired: new Date(Date.now() + 30 * 86400e3).toISOString(),
    });
    const { db } = t.deps.database;
    const run = () => notifyExpiringPermissions(db, t.deps.bus, t.deps.settings);
    expect(await run()).toBe(2);
    const got = await messagesOf(carl.id);
    expect(got).toHaveLength(1);
    expect(got[0]!.subject).toBe('Asset permission expires soon');
    expect(got[0]!.message).toContain('expires soon');
    expect(await messagesOf(u.alice!.id)).toHaveLength(1);
    // Once per expiry date; a new date warns again.
    expect(await run()).toBe(0);
    const later = new Date(Date.now() + 86400e3).toISOString();
    expect(
      (await admin.request({ method: 'PATCH', url: `${PERMS}${p.id}/`, payload: { date_expired: later } })).statusCode,
    ).toBe(200);
    expect(await run()).toBe(2);
    await t.deps.settings.set('PERM_EXPIRE_NOTIFY_DAYS', 0);
    await db.updateTable('perms_assetpermission').set({ expire_notified: null }).execute();
    expect(await run()).toBe(0);
  });
});
