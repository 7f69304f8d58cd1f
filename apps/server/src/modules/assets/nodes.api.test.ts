import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** The node tree: keys, children, zTree JSON, moves and exact asset counts. */
let t: TestApp;
let admin: SessionClient;
const N = '/api/v1/assets/nodes';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const put = (url: string, payload: unknown) => admin.request({ method: 'PUT', url, payload: payload as object });
const amount = async (id: string) => (await admin.get(`${N}/${id}/`)).json().assets_amount;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('node tree', () => {
  it('creates children with path keys, moves subtrees and keeps every count exact', async () => {
    const root: Row = (await admin.get(`${N}/children/`)).json()[0];
    expect(root).toMatchObject({ key: '1', value: 'DEFAULT', full_value: '/DEFAULT' });
    const a = (await admin.post(`${N}/${root.id}/children/`, { value: 'a' })).json();
    const b = (await admin.post(`${N}/${root.id}/children/`, { value: 'b' })).json();
    const a1 = (await admin.post(`${N}/${a.id}/children/`, { value: 'a1' })).json();
    expect([a.key, b.key, a1.key]).toEqual(['1:1', '1:2', '1:1:1']);
    expect(a1.full_value).toBe('/DEFAULT/a/a1');
    expect((await admin.post(`${N}/${root.id}/children/`, { value: 'a' })).statusCode).toBe(400);
    expect((await admin.post(`${N}/${root.id}/children/`, {})).json().value).toBe('New node 1');

    const mk = async (name: string, nodes: string[]) =>
      (await admin.post('/api/v1/assets/hosts/', { name, address: '10.9.9.9', platform: 'Linux', nodes })).json();
    const h1 = await mk('n1', [a1.id]);
    await mk('n2', [a1.id, a.id]);
    await mk('n3', [b.key]);
    expect([await amount(root.id), await amount(a.id), await amount(a1.id), await amount(b.id)]).toEqual([3, 2, 2, 1]);

    const tree: Row[] = (await admin.get(`${N}/children/tree/?key=${a.key}&assets=1`)).json();
    expect(tree.find((x) => x.id === a1.key)).toMatchObject({
      name: 'a1 (2)',
      pId: '1:1',
      isParent: true,
      meta: { type: 'node', data: { id: a1.id, key: '1:1:1', value: 'a1' } },
    });
    expect(tree.find((x) => x.meta.type === 'asset')).toMatchObject({
      name: 'n2',
      pId: '1:1',
      isParent: false,
      meta: { data: { platform_type: 'linux', sftp: true } },
    });
    expect((await admin.get(`/api/v1/assets/assets/?node=${a.id}`)).json().length).toBe(2);
    expect((await admin.get(`/api/v1/assets/assets/?node=${a.id}&show_current_asset=1`)).json().length).toBe(1);

    // Move a (with a1) under b: keys follow, counts of both branches change.
    expect((await put(`${N}/${b.id}/children/add/`, { nodes: [a.id] })).statusCode).toBe(200);
    const moved = (await admin.get(`${N}/${a1.id}/`)).json();
    expect(moved.key).toBe('1:2:1:1');
    expect(moved.full_value).toBe('/DEFAULT/b/a/a1');
    expect([await amount(root.id), await amount(b.id), await amount(a.id)]).toEqual([3, 3, 2]);
    expect((await put(`${N}/${a1.id}/children/add/`, { nodes: [b.id] })).statusCode).toBe(400);

    // Assets in and out of nodes; removing the last node puts the asset at the root.
    await put(`${N}/${b.id}/assets/remove/`, {
      assets: [(await admin.get('/api/v1/assets/hosts/?name=n3')).json()[0].id],
    });
    expect([await amount(b.id), await amount(root.id)]).toEqual([2, 3]);
    await put(`${N}/${a1.id}/assets/remove/`, { assets: [h1.id] });
    expect(await amount(a1.id)).toBe(1);
    await put(`${N}/${a1.id}/assets/add/`, { assets: [h1.id] });
    expect(await amount(a1.id)).toBe(2);

    // Deleting: root refused, non-empty refused, assets deleted → counts drop.
    expect((await admin.request({ method: 'DELETE', url: `${N}/${root.id}/` })).json()).toEqual({
      error: "You can't delete the root node (DEFAULT)",
    });
    expect((await admin.request({ method: 'DELETE', url: `${N}/${a.id}/` })).statusCode).toBe(403);
    await admin.request({ method: 'DELETE', url: `/api/v1/assets/hosts/${h1.id}/` });
    expect([await amount(a1.id), await amount(root.id)]).toEqual([1, 2]);
  });
});
