import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, SYSTEM_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** Organisations: create, counts, delete rules, and isolation of org data. */
let t: TestApp;
let admin: SessionClient;
let b: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  b = (await admin.post('/api/v1/orgs/orgs/', { name: 'Org B', comment: 'second' })).json();
});
afterAll(async () => t.close());

describe('organisations', () => {
  it('creates an org and lists resource counts', async () => {
    expect(b).toMatchObject({ name: 'Org B', is_default: false, is_root: false, internal: false });
    await admin.post('/api/v1/users/groups/', { name: 'g1' }, { 'x-jms-org': b.id });
    const list = (await admin.get('/api/v1/orgs/orgs/?order=name')).json();
    const def = list.find((o: { id: string }) => o.id === DEFAULT_ORG_ID);
    expect(def).toMatchObject({
      is_default: true,
      internal: true,
      resource_statistics: { users_amount: 1, groups_amount: 0 },
    });
    expect(list.find((o: { id: string }) => o.id === b.id).resource_statistics).toMatchObject({
      users_amount: 0,
      groups_amount: 1,
      assets_amount: 0,
    });
  });

  it('keeps each org’s objects to itself, even when the id is guessed', async () => {
    const [g] = (await admin.get('/api/v1/users/groups/', { 'x-jms-org': b.id })).json();
    expect((await admin.get('/api/v1/users/groups/')).json()).toEqual([]);
    expect((await admin.get(`/api/v1/users/groups/${g.id}/`)).statusCode).toBe(404);
    expect(
      (await admin.request({ method: 'PATCH', url: `/api/v1/users/groups/${g.id}/`, payload: { name: 'x' } }))
        .statusCode,
    ).toBe(404);
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/users/groups/${g.id}/` })).statusCode).toBe(404);
    const root = (
      await admin.get('/api/v1/users/groups/', { 'x-jms-org': '00000000-0000-0000-0000-000000000000' })
    ).json();
    expect(root.map((x: { org_name: string }) => x.org_name)).toEqual(['Org B']);
  });

  it('refuses to delete internal orgs, the current org and orgs that hold objects', async () => {
    const internal = await admin.request({ method: 'DELETE', url: `/api/v1/orgs/orgs/${SYSTEM_ORG_ID}/` });
    expect(internal.statusCode).toBe(400);
    expect(internal.json().detail).toBe('Can not delete virtual org');
    const holding = await admin.request({ method: 'DELETE', url: `/api/v1/orgs/orgs/${b.id}/` });
    expect(holding.statusCode).toBe(403);
    expect(holding.json().detail).toMatch(/still holds user groups/);
    const c = (await admin.post('/api/v1/orgs/orgs/', { name: 'Org C' })).json();
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/v1/orgs/orgs/${c.id}/`, headers: { 'x-jms-org': c.id } }))
        .statusCode,
    ).toBe(403);
    // Every org has its root node from birth; that alone never blocks deletion.
    expect((await admin.get('/api/v1/assets/nodes/children/tree/', { 'x-jms-org': c.id })).statusCode).toBe(200);
    expect((await admin.request({ method: 'DELETE', url: `/api/v1/orgs/orgs/${c.id}/` })).statusCode).toBe(204);
  });
});
