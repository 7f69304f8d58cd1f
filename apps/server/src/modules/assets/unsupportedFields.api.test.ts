import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

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

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('contract fields not supported yet', () => {
  it('accepts an empty value (nothing lost) and ignores fields unknown to the contract', async () => {
    expect((await admin.post(H, host('empty-accounts', { accounts: [] }))).statusCode).toBe(201);
    expect((await admin.post(H, host('null-accounts', { accounts: null }))).statusCode).toBe(201);
    const newer = await admin.post(H, host('newer-client', { some_future_field: { x: 1 } }));
    expect(newer.statusCode).toBe(201);
    expect(newer.json()).not.toHaveProperty('some_future_field');
  });

  it('refuses a user create with a public key instead of dropping it', async () => {
    const user = { name: 'Keyed', username: 'keyed', email: 'keyed@example.com' };
    const res = await admin.post('/api/v1/users/users/', { ...user, public_key: 'ssh-ed25519 AAAAC3Nza test' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ public_key: [NOT_YET] });
    const zh = await admin.post(
      '/api/v1/users/users/',
      { ...user, public_key: 'ssh-ed25519 AAAAC3Nza test' },
      { cookie: `${admin.jar.header()}; django_language=zh-hans` },
    );
    expect(zh.json().public_key).toEqual(['本服务器暂不支持该字段：请省略该字段或传空值。']);
    expect((await admin.post('/api/v1/users/users/', { ...user, public_key: '' })).statusCode).toBe(201);
  });
});
