import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeAsset, makeNode, makePerm, makeUser, PASSWORD, type Row } from '../../../test-support/perms.ts';

/**
 * Who is granted one asset (the asset detail's "authorised users"): users and groups named by the
 * permissions in force on it or on an ancestor node, users also through groups, and the
 * permissions behind each; nothing from expired or inactive permissions, nothing across orgs.
 */
let t: TestApp;
let admin: SessionClient;
let orgB: string;
const u: Record<string, Row> = {};
let ops: Row;
let host: Row;
let other: Row;
const A = '/api/v1/assets/assets';
const names = (rows: Row[]) => rows.map((r) => r.username ?? r.name).sort();

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Grantee org B' })).json().id;
  for (const name of ['ann', 'ben', 'cid', 'dee']) u[name] = await makeUser(admin, name);
  ops = (await admin.post('/api/v1/users/groups/', { name: 'Ops', users: [u.ben!.id] })).json();
  const top = await makeNode(admin, 'Top');
  const leaf = await makeNode(admin, 'Top/Leaf');
  host = await makeAsset(admin, [leaf.id], DEFAULT_ORG_ID, 'granted-host');
  other = await makeAsset(admin, [top.id], DEFAULT_ORG_ID, 'other-host');
  await makePerm(admin, { name: 'ann direct', users: [u.ann!.id], assets: [host.id] });
  await makePerm(admin, { name: 'ops on top', user_groups: [ops.id], nodes: [top.id] });
  await makePerm(admin, {
    name: 'cid expired',
    users: [u.cid!.id],
    assets: [host.id],
    date_start: '2000-01-01T00:00:00Z',
    date_expired: '2001-01-01T00:00:00Z',
  });
  await makePerm(admin, { name: 'dee inactive', users: [u.dee!.id], assets: [host.id], is_active: false });
});
afterAll(async () => t.close());

describe("an asset's authorised users and groups", () => {
  it('lists users named directly and through a group on an ancestor node, not those of expired or inactive permissions', async () => {
    const res = await admin.get(`${A}/${host.id}/perm-users/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(names(res.json())).toEqual(['ann', 'ben']);
    const page = (await admin.get(`${A}/${host.id}/perm-users/?limit=1&offset=0&search=ben`)).json();
    expect(page.count).toBe(1);
    expect(page.results[0].username).toBe('ben');
    expect(names((await admin.get(`${A}/${other.id}/perm-users/`)).json())).toEqual(['ben']);
    expect(names((await admin.get(`${A}/${host.id}/perm-user-groups/`)).json())).toEqual(['Ops']);
  });

  it('names the permissions behind one user or group', async () => {
    const forBen: Row[] = (await admin.get(`${A}/${host.id}/perm-users/${u.ben!.id}/permissions/`)).json();
    expect(forBen.map((p) => p.name)).toEqual(['ops on top']);
    const forAnn: Row[] = (await admin.get(`${A}/${host.id}/perm-users/${u.ann!.id}/permissions/`)).json();
    expect(forAnn.map((p) => p.name)).toEqual(['ann direct']);
    const forCid: Row[] = (await admin.get(`${A}/${host.id}/perm-users/${u.cid!.id}/permissions/`)).json();
    expect(forCid).toEqual([]);
    const forOps: Row[] = (await admin.get(`${A}/${host.id}/perm-user-groups/${ops.id}/permissions/`)).json();
    expect(forOps.map((p) => p.name)).toEqual(['ops on top']);
  });

  it('refuses users without the permission view, and assets of another org', async () => {
    const ann = new SessionClient(t.app);
    expect((await ann.login('ann', PASSWORD)).statusCode).toBe(200);
    expect((await ann.get(`${A}/${host.id}/perm-users/`)).statusCode).toBe(403);
    const res = await admin.get(`${A}/${host.id}/perm-users/`, { 'x-jms-org': orgB });
    expect(res.statusCode).toBe(404);
    expect((await admin.get(`${A}/not-an-id/perm-user-groups/`)).statusCode).toBe(404);
  });
});
