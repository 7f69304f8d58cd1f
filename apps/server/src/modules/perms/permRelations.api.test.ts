import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import {
  makeAccount,
  makeAsset,
  makeNode,
  makePerm,
  makeUser,
  P,
  PASSWORD,
  PERMS,
  type Row,
} from '../../../test-support/perms.ts';

/** The four relation endpoints and what one permission covers (assets/all, users/all, accounts). */
let t: TestApp;
let admin: SessionClient;
let orgB: string;
const u: Record<string, Row> = {};
let group: Row;
let node: Row;
let inNode: Row;
let direct: Row;
let perm: Row;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Rel org B' })).json().id;
  for (const name of ['ann', 'ben', 'cid']) u[name] = await makeUser(admin, name);
  u.bea = await makeUser(admin, 'bea', orgB);
  group = (await admin.post('/api/v1/users/groups/', { name: 'Rel group', users: [u.ben!.id] })).json();
  node = await makeNode(admin, 'Rel/Sub');
  inNode = await makeAsset(admin, [node.id], DEFAULT_ORG_ID, 'in-node');
  direct = await makeAsset(admin, [], DEFAULT_ORG_ID, 'direct');
  await makeAccount(admin, inNode.id, 'root');
  await makeAccount(admin, direct.id, 'web');
  perm = await makePerm(admin, { name: 'rel perm', accounts: ['root'] });
});
afterAll(async () => t.close());

describe('relations', () => {
  it('adds, lists and removes users, groups, assets and nodes of a permission', async () => {
    const add = async (kind: string, field: string, id: string) => {
      const res = await admin.post(`${P}/asset-permissions-${kind}-relations/`, [
        { assetpermission: perm.id, [field]: id },
      ]);
      expect(res.statusCode, res.body).toBe(201);
      return res.json()[0];
    };
    expect(await add('users', 'user', u.ann!.id)).toMatchObject({
      user: u.ann!.id,
      user_display: 'ann(ann)',
      assetpermission: perm.id,
      assetpermission_display: 'rel perm',
    });
    expect(await add('user-groups', 'usergroup', group.id)).toMatchObject({ usergroup_display: 'Rel group' });
    expect(await add('assets', 'asset', direct.id)).toMatchObject({ asset_display: 'direct(10.0.0.1)' });
    expect((await add('nodes', 'node', node.id)).node_display).toMatch(/\/Rel\/Sub$/);
    const p = (await admin.get(`${PERMS}${perm.id}/`)).json();
    expect([p.users_amount, p.user_groups_amount, p.assets_amount, p.nodes_amount]).toEqual([1, 1, 1, 1]);
    const list = (await admin.get(`${P}/asset-permissions-users-relations/?assetpermission=${perm.id}`)).json();
    expect(list.map((r: Row) => r.user)).toEqual([u.ann!.id]);
    // Adding again keeps one link.
    expect(
      (await admin.post(`${P}/asset-permissions-users-relations/`, { assetpermission: perm.id, user: u.ann!.id }))
        .statusCode,
    ).toBe(201);
    expect((await admin.get(`${P}/asset-permissions-users-relations/?assetpermission=${perm.id}`)).json()).toHaveLength(
      1,
    );
  });

  it('covers assets under nodes, users through groups, and the named accounts of those assets', async () => {
    const assets: Row[] = (await admin.get(`${PERMS}${perm.id}/assets/all/`)).json();
    expect(assets.map((a) => a.name).sort()).toEqual(['direct', 'in-node']);
    expect(assets[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      address: '10.0.0.1',
      asset_display: expect.any(String),
    });
    expect((await admin.get(`${PERMS}${perm.id}/assets/all/?search=in-`)).json()).toHaveLength(1);
    const users: Row[] = (await admin.get(`${PERMS}${perm.id}/users/all/`)).json();
    expect(users.map((x) => x.username).sort()).toEqual(['ann', 'ben']);
    expect(users[0]).toMatchObject({ user_display: expect.stringMatching(/\(.+\)/) });
    const page = (await admin.get(`${PERMS}${perm.id}/users/all/?limit=1`)).json();
    expect(page.count).toBe(2);
    const accounts: Row[] = (await admin.get(`${PERMS}${perm.id}/accounts/`)).json();
    expect(accounts.map((a) => a.username)).toEqual(['root']);
    await admin.request({ method: 'PATCH', url: `${PERMS}${perm.id}/`, payload: { accounts: ['@ALL'] } });
    expect(((await admin.get(`${PERMS}${perm.id}/accounts/`)).json() as Row[]).map((a) => a.username).sort()).toEqual([
      'root',
      'web',
    ]);
  });

  it('refuses targets and permissions of another org, and removes with a filter only', async () => {
    const bad = await admin.post(`${P}/asset-permissions-users-relations/`, {
      assetpermission: perm.id,
      user: u.bea!.id,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().user[0]).toContain(u.bea!.id);
    const fromB = await admin.post(
      `${P}/asset-permissions-users-relations/`,
      { assetpermission: perm.id, user: u.bea!.id },
      { 'x-jms-org': orgB },
    );
    expect(fromB.statusCode).toBe(400);
    expect(fromB.json().assetpermission).toBeDefined();
    expect((await admin.get(`${PERMS}${perm.id}/assets/all/`, { 'x-jms-org': orgB })).statusCode).toBe(404);
    expect(
      (
        await admin.get(`${P}/asset-permissions-users-relations/?assetpermission=${perm.id}`, { 'x-jms-org': orgB })
      ).json(),
    ).toEqual([]);
    expect((await admin.request({ method: 'DELETE', url: `${P}/asset-permissions-users-relations/` })).statusCode).toBe(
      400,
    );
    const del = await admin.request({
      method: 'DELETE',
      url: `${P}/asset-permissions-users-relations/?assetpermission=${perm.id}&user=${u.ann!.id}`,
    });
    expect(del.statusCode).toBe(204);
    expect((await admin.get(`${P}/asset-permissions-users-relations/?assetpermission=${perm.id}`)).json()).toEqual([]);
  });

  it('refuses a plain user', async () => {
    const cid = new SessionClient(t.app);
    expect((await cid.login('cid', PASSWORD)).statusCode).toBe(200);
    expect(
      (await cid.post(`${P}/asset-permissions-users-relations/`, { assetpermission: perm.id, user: u.cid!.id }))
        .statusCode,
    ).toBe(403);
    expect((await cid.get(`${PERMS}${perm.id}/users/all/`)).statusCode).toBe(403);
    expect((await cid.get(PERMS)).statusCode).toBe(403);
  });
});
