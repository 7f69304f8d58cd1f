import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeAsset, makeNode, makePerm, makeUser, P, PASSWORD, PERMS, type Row } from '../../../test-support/perms.ts';

/**
 * What a user is granted (issue 15): the granted assets, nodes with counts, the lazy tree, the
 * category tree and favourites, computed on each request: a change shows on the next one.
 */
let t: TestApp;
let admin: SessionClient;
let alice: SessionClient;
let orgB: string;
const u: Record<string, Row> = {};
const n: Record<string, Row> = {};
const a: Record<string, Row> = {};
let group: Row;
let rootKey: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Grant org B' })).json().id;
  for (const name of ['alice', 'bob', 'carol']) u[name] = await makeUser(admin, name);
  u.bert = await makeUser(admin, 'bert', orgB);
  group = (await admin.post('/api/v1/users/groups/', { name: 'Ops', users: [u.bob!.id] })).json();
  for (const path of ['A', 'A/B', 'A/B/C', 'D']) n[path] = await makeNode(admin, path);
  rootKey = n.A!.key.split(':')[0];
  a.h1 = await makeAsset(admin, [n['A/B/C']!.id], DEFAULT_ORG_ID, 'h1');
  a.h2 = await makeAsset(admin, [n.A!.id], DEFAULT_ORG_ID, 'h2');
  a.h3 = await makeAsset(admin, [n.D!.id], DEFAULT_ORG_ID, 'h3');
  a.h4 = await makeAsset(admin, [n.D!.id, n['A/B']!.id], DEFAULT_ORG_ID, 'h4');
  await makePerm(admin, { name: 'alice on A/B', users: [u.alice!.id], nodes: [n['A/B']!.id] });
  await makePerm(admin, { name: 'ops on h3', user_groups: [group.id], assets: [a.h3!.id] });
  alice = new SessionClient(t.app);
  expect((await alice.login('alice', PASSWORD)).statusCode).toBe(200);
});
afterAll(async () => t.close());

const names = (rows: Row[]) => rows.map((r) => r.name).sort();

describe('granted assets and nodes', () => {
  it('grants the assets under a granted node (its whole subtree), and nothing to others', async () => {
    const mine: Row[] = (await alice.get(`${P}/users/self/assets/`)).json();
    expect(names(mine)).toEqual(['h1', 'h4']);
    expect(Object.keys(mine[0]!)).toEqual(
      expect.arrayContaining([
        'id',
        'name',
        'address',
        'platform',
        'protocols',
        'nodes',
        'category',
        'type',
        'org_name',
      ]),
    );
    expect(names((await alice.get(`${P}/users/my/assets/`)).json())).toEqual(['h1', 'h4']);
    expect(names((await admin.get(`${P}/users/${u.bob!.id}/assets/`)).json())).toEqual(['h3']);
    expect((await admin.get(`${P}/users/${u.carol!.id}/assets/`)).json()).toEqual([]);
    const page = (await alice.get(`${P}/users/self/assets/?limit=1`)).json();
    expect(page.count).toBe(2);
    expect(page.results).toHaveLength(1);
    expect(names((await alice.get(`${P}/users/self/assets/?node_id=${n['A/B/C']!.id}`)).json())).toEqual(['h1']);
    expect(names((await alice.get(`${P}/users/self/nodes/${n['A/B/C']!.id}/assets/`)).json())).toEqual(['h1']);
    expect(names((await admin.get(`${P}/users/${u.bob!.id}/nodes/ungrouped/assets/`)).json())).toEqual(['h3']);
  });

  it('lists the granted nodes with the granted asset count of each, ancestors included', async () => {
    const nodes: Row[] = (await alice.get(`${P}/users/self/nodes/`)).json();
    const byKey = Object.fromEntries(nodes.map((x) => [x.key, x.assets_amount]));
    expect(byKey).toEqual({ [rootKey]: 2, [n.A!.key]: 2, [n['A/B']!.key]: 2, [n['A/B/C']!.key]: 1 });
    expect(nodes[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      value: expect.any(String),
      org_id: DEFAULT_ORG_ID,
    });
    // bob: h3 directly, in D; D and the root are shown as the way to it.
    const bobs: Row[] = (await admin.get(`${P}/users/${u.bob!.id}/nodes/`)).json();
    expect(Object.fromEntries(bobs.map((x) => [x.key, x.assets_amount]))).toEqual({ [rootKey]: 1, [n.D!.key]: 1 });
    const children: Row[] = (await alice.get(`${P}/users/self/nodes/children/?key=${n.A!.key}`)).json();
    expect(children.map((x) => x.key)).toEqual([n['A/B']!.key]);
  });

  it('answers the lazy tree one level at a time, with the assets of each node', async () => {
    const topRes = await alice.get(`${P}/users/self/nodes/children-with-assets/tree/`);
    const top: Row[] = topRes.json();
    expect(top[0], topRes.body).toMatchObject({ id: 'favorite', pId: '', meta: { type: 'node' } });
    // One top node (the org root): unfolded, with its granted child A.
    expect(top.filter((x) => x.meta.type === 'node').map((x) => x.id)).toEqual(['favorite', rootKey, n.A!.key]);
    expect(top.find((x) => x.id === rootKey)).toMatchObject({ open: true, name: expect.stringContaining('(2)') });
    const ab: Row[] = (await alice.get(`${P}/users/self/nodes/children-with-assets/tree/?key=${n['A/B']!.key}`)).json();
    expect(ab.map((x) => [x.meta.type, x.name.split(' ')[0]])).toEqual([
      ['node', 'C'],
      ['asset', 'h4'],
    ]);
    expect(ab[1]).toMatchObject({ pId: n['A/B']!.key, isParent: false, meta: { data: { name: 'h4' } } });
    const tree: Row[] = (await alice.get(`${P}/users/self/nodes/children/tree/?key=${n.A!.key}`)).json();
    expect(tree.map((x) => x.id)).toEqual([n['A/B']!.key]);
    const all: Row[] = (await alice.get(`${P}/users/self/nodes/all-with-assets/tree/`)).json();
    expect(
      all
        .filter((x) => x.meta.type === 'asset')
        .map((x) => `${x.name}@${x.pId}`)
        .sort(),
    ).toEqual([`h1@${n['A/B/C']!.key}`, `h4@${n['A/B']!.key}`].sort());
    const flat: Row[] = (await alice.get(`${P}/users/self/assets/tree/?search=h1`)).json();
    expect(flat.map((x) => x.name)).toEqual(['h1']);
    expect((await alice.get(`${P}/users/self/ungroup/assets/tree/`)).json()).toEqual([]);
  });

  it('answers the category tree of the granted assets only', async () => {
    const tree: Row[] = (await alice.get(`${P}/users/self/nodes/children-with-assets/category/tree/`)).json();
    expect(tree.map((x) => x.id)).toEqual(['ROOT', 'ROOT_HOST', 'ROOT_HOST_linux']);
    expect(tree[2]).toMatchObject({ name: expect.stringContaining('(2)'), type: 'linux', meta: { _type: 'linux' } });
    const synced: Row[] = (await alice.get(`${P}/users/self/nodes/children-with-assets/category/tree/?sync=1`)).json();
    expect(synced.filter((x) => x.meta.type === 'asset').map((x) => x.pId)).toEqual([
      'ROOT_HOST_linux',
      'ROOT_HOST_linux',
    ]);
    const typed: Row[] = (
      await alice.get(`${P}/users/self/nodes/children-with-assets/category/tree/?type=linux`)
    ).json();
    expect(names(typed)).toEqual(['h1', 'h4']);
  });

  it('shows granted favourites only', async () => {
    for (const id of [a.h1!.id, a.h3!.id]) await alice.post('/api/v1/assets/favorite-assets/', { asset: id });
    expect(names((await alice.get(`${P}/users/self/nodes/favorite/assets/`)).json())).toEqual(['h1']);
    const top: Row[] = (await alice.get(`${P}/users/self/nodes/children-with-assets/tree/`)).json();
    expect(top[0]!.name).toContain('(1)');
    const fav: Row[] = (await alice.get(`${P}/users/self/nodes/children-with-assets/tree/?key=favorite`)).json();
    expect(fav.map((x) => x.name)).toEqual(['h1']);
  });

  it('answers a group what it is granted', async () => {
    expect(names((await admin.get(`${P}/user-groups/${group.id}/assets/`)).json())).toEqual(['h3']);
    const nodes: Row[] = (await admin.get(`${P}/user-groups/${group.id}/nodes/`)).json();
    expect(nodes.map((x) => x.key).sort()).toEqual([rootKey, n.D!.key].sort());
  });
});

describe('never stale', () => {
  it('shows a change to a permission, a group membership, a node or an asset on the next request', async () => {
    const url = `${P}/users/${u.bob!.id}/assets/`;
    expect(names((await admin.get(url)).json())).toEqual(['h3']);
    // Membership: bob leaves the group that carried the grant.
    const res = await admin.request({
      method: 'PATCH',
      url: `/api/v1/users/groups/${group.id}/`,
      payload: { users: [] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await admin.get(url)).json()).toEqual([]);
    // A permission: bob on node D.
    const p = await makePerm(admin, { users: [u.bob!.id], nodes: [n.D!.id] });
    expect(names((await admin.get(url)).json())).toEqual(['h3', 'h4']);
    // An asset joins node D.
    const h5 = await makeAsset(admin, [n.D!.id], DEFAULT_ORG_ID, 'h5');
    expect(names((await admin.get(url)).json())).toEqual(['h3', 'h4', 'h5']);
    // A node moves under D.
    const moved = await admin.request({
      method: 'PUT',
      url: `/api/v1/assets/nodes/${n.D!.id}/children/add/`,
      payload: { nodes: [n['A/B/C']!.id] },
    });
    expect(moved.statusCode, moved.body).toBeLessThan(300);
    expect(names((await admin.get(url)).json())).toEqual(['h1', 'h3', 'h4', 'h5']);
    // The permission is switched off.
    await admin.request({ method: 'PATCH', url: `${PERMS}${p.id}/`, payload: { is_active: false } });
    expect((await admin.get(url)).json()).toEqual([]);
    expect(h5.id).toBeDefined();
  });
});

describe('who may ask', () => {
  it('refuses another user to a plain user, and users and groups of other orgs', async () => {
    expect((await alice.get(`${P}/users/${u.bob!.id}/assets/`)).statusCode).toBe(403);
    expect((await alice.get(`${P}/user-groups/${group.id}/assets/`)).statusCode).toBe(403);
    expect((await admin.get(`${P}/users/${u.bert!.id}/assets/`)).statusCode).toBe(404);
    expect((await admin.get(`${P}/user-groups/${group.id}/assets/`, { 'x-jms-org': orgB })).statusCode).toBe(404);
    expect((await admin.get(`${P}/users/not-a-uuid/nodes/`)).statusCode).toBe(404);
    expect((await alice.get(`${P}/users/self/nodes/`)).statusCode).toBe(200);
  });
});
