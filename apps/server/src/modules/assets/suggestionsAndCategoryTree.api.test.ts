import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** Asset and node suggestions and the category type tree. */
let t: TestApp;
let admin: SessionClient;
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  for (let i = 0; i < 12; i++)
    await admin.post('/api/v1/assets/hosts/', { name: `sg-host-${i}`, address: `10.77.0.${i}`, platform: 'Linux' });
  await admin.post('/api/v1/assets/hosts/', { name: 'sg-win', address: '10.78.1.1', platform: 'Windows' });
  await admin.post('/api/v1/assets/databases/', {
    name: 'sg-db',
    address: '10.79.1.1',
    platform: 'MySQL',
    db_name: 'x',
  });
});
afterAll(async () => t.close());

describe('suggestions', () => {
  it('finds at most 10 assets by name or part of the address, per category', async () => {
    const many: Row[] = (await admin.get('/api/v1/assets/assets/suggestions/?search=10.77')).json();
    expect(many).toHaveLength(10);
    expect(Object.keys(many[0]!).sort()).toEqual(['address', 'id', 'name']);
    expect((await admin.get('/api/v1/assets/assets/suggestions/?search=78.1')).json()).toMatchObject([
      { name: 'sg-win', address: '10.78.1.1' },
    ]);
    expect((await admin.get('/api/v1/assets/hosts/suggestions/?search=sg-db')).json()).toEqual([]);
    expect((await admin.get('/api/v1/assets/databases/suggestions/?search=sg-db')).json()).toMatchObject([
      { name: 'sg-db' },
    ]);
    expect((await admin.get('/api/v1/assets/assets/suggestions/?search=100%')).json()).toEqual([]);
  });

  it('finds nodes by name with their full path', async () => {
    const root: Row = (await admin.get('/api/v1/assets/nodes/children/')).json()[0];
    await admin.post(`/api/v1/assets/nodes/${root.id}/children/`, { value: 'sg-node' });
    expect((await admin.get('/api/v1/assets/nodes/suggestions/?search=sg-no')).json()).toMatchObject([
      { value: 'sg-node', full_value: '/DEFAULT/sg-node' },
    ]);
  });

  it('is refused to anonymous callers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/assets/assets/suggestions/' })).statusCode).toBe(401);
  });
});

describe('category tree', () => {
  it("lists categories, types and platforms with exact counts, then a platform's assets", async () => {
    const tree: Row[] = (await admin.get('/api/v1/assets/nodes/category/tree/?assets=1')).json();
    expect(tree[0]).toMatchObject({ id: 'ROOT', name: 'All types', isParent: true });
    expect(tree.find((n) => n.id === 'ROOT_HOST')).toMatchObject({
      name: 'Host(13)',
      title: 'Host',
      pId: 'ROOT',
      meta: { type: 'category', category: 'host' },
    });
    expect(tree.find((n) => n.id === 'ROOT_HOST_linux')).toMatchObject({
      name: 'Linux(12)',
      pId: 'ROOT_HOST',
      isParent: true,
      meta: { type: 'type', _type: 'linux' },
    });
    expect(tree.find((n) => n.id === 'ROOT_DATABASE')).toMatchObject({ name: 'Database(1)' });
    const linux = tree.find((n) => n.pId === 'ROOT_HOST_linux' && n.title === 'Linux')!;
    expect(linux).toMatchObject({ name: 'Linux(12)', isParent: true, meta: { type: 'platform' } });
    const assets: Row[] = (await admin.get(`/api/v1/assets/nodes/category/tree/?key=${linux.id}&assets=1`)).json();
    expect(assets).toHaveLength(12);
    expect(assets[0]).toMatchObject({
      pId: linux.id,
      isParent: false,
      meta: { type: 'asset', data: { platform_type: 'linux' } },
    });
    const zh: Row[] = (
      await admin.request({
        method: 'GET',
        url: '/api/v1/assets/nodes/category/tree/',
        headers: { 'accept-language': 'zh-CN' },
      })
    ).json();
    expect(zh[0]!.name).toBe('所有类型');
  });
});
