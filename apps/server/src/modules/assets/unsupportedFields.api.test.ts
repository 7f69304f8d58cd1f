import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../testing/testApp.ts';

/**
 * Contract fields Gatehouse does not store yet (`ResourceDef.unsupportedFields`) are refused with
 * 400 naming them, never accepted and dropped; fields the contract does not know are ignored.
 */
let t: TestApp;
let admin: SessionClient;
const H = '/api/v1/assets/hosts/';
const NOT_YET = 'This field is not supported by this server yet: leave it out or send it empty.';
const host = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  address: '10.1.1.1',
  platform: 'Linux',
  ...extra,
});
const names = async () => ((await admin.get(H)).json() as { name: string }[]).map((h) => h.name).sort();

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('contract fields not supported yet', () => {
  it('refuses an asset create with accounts (single and bulk) and creates nothing', async () => {
    const accounts = [{ name: 'root', username: 'root', secret_type: 'password', secret: 'S3cret!' }];
    const one = await admin.post(H, host('with-accounts', { accounts }));
    expect(one.statusCode).toBe(400);
    expect(one.json()).toEqual({ accounts: [NOT_YET] });
    expect(JSON.stringify(one.json())).not.toContain('S3cret');
    const bulk = await admin.post(H, [host('bulk-ok'), host('bulk-accounts', { accounts })]);
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual([{}, { accounts: [NOT_YET] }]);
    expect(await names()).toEqual([]);
    const zh = await admin.post(H, host('zh', { accounts }), {
      cookie: `${admin.jar.header()}; django_language=zh-hans`,
    });
    expect(zh.json().accounts).toEqual(['本服务器暂不支持该字段：请省略该字段或传空值。']);
  });

  it('accepts an empty value (nothing lost) and ignores fields unknown to the contract', async () => {
    expect((await admin.post(H, host('empty-accounts', { accounts: [] }))).statusCode).toBe(201);
    expect((await admin.post(H, host('null-accounts', { accounts: null }))).statusCode).toBe(201);
    const newer = await admin.post(H, host('newer-client', { some_future_field: { x: 1 } }));
    expect(newer.statusCode).toBe(201);
    expect(newer.json()).not.toHaveProperty('some_future_field');
    const patch = await admin.request({
      method: 'PATCH',
      url: `${H}${newer.json().id}/`,
      payload: { accounts: [{ username: 'x' }] },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toEqual({ accounts: [NOT_YET] });
  });

  it('refuses a user create with a public key instead of dropping it', async () => {
    const user = { name: 'Keyed', username: 'keyed', email: 'keyed@example.com' };
    const res = await admin.post('/api/v1/users/users/', { ...user, public_key: 'ssh-ed25519 AAAAC3Nza test' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ public_key: [NOT_YET] });
    expect((await admin.post('/api/v1/users/users/', { ...user, public_key: '' })).statusCode).toBe(201);
  });
});
