import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { startVaultStandIn, type VaultStandIn } from '../../../../test-support/vaultStandIn.ts';
import { makeAccount, makeAsset, makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { readSecret } from './vaultClient.ts';

/**
 * Features › Vault: the settings (the token sealed), the test and the sync of account secrets.
 * HashiCorp Vault cannot be installed here: a local stand-in of its KV v2 HTTP API answers
 * (test-support/vaultStandIn.ts).
 */
let t: TestApp;
let admin: SessionClient;
let vault: VaultStandIn;
const TOKEN = 'hvs.gatehouse-test-token';
const SETTING = '/api/v1/settings/setting/?category=vault';

beforeAll(async () => {
  vault = await startVaultStandIn(TOKEN, 'gatehouse');
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => {
  await t.close();
  await vault.close();
});

describe('Vault', () => {
  it('tests the form’s values: a wrong token and a wrong mount are named, the right ones pass', async () => {
    const form = { VAULT_HCP_HOST: vault.url, VAULT_HCP_MOUNT_POINT: 'gatehouse' };
    const wrong = await admin.post('/api/v1/settings/vault/testing/', { ...form, VAULT_HCP_TOKEN: 'nope' });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().msg).toBe('Vault answered: permission denied');
    const mount = await admin.post('/api/v1/settings/vault/testing/', {
      ...form,
      VAULT_HCP_TOKEN: TOKEN,
      VAULT_HCP_MOUNT_POINT: 'other',
    });
    expect(mount.json().msg).toBe('Vault answered: HTTP 404');
    const ok = await admin.post('/api/v1/settings/vault/testing/', { ...form, VAULT_HCP_TOKEN: TOKEN });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().msg).toMatch(/^Connected to Vault/);
  });

  it('syncs every account secret to the KV v2 engine, readable back', async () => {
    const off = await admin.post('/api/v1/settings/vault/sync/', {});
    expect(off.statusCode).toBe(400);
    const saved = await admin.patch(SETTING, {
      VAULT_ENABLED: true,
      VAULT_HCP_HOST: vault.url,
      VAULT_HCP_TOKEN: TOKEN,
      VAULT_HCP_MOUNT_POINT: 'gatehouse',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).not.toHaveProperty('VAULT_HCP_TOKEN');
    const asset = await makeAsset(admin, []);
    const a = await makeAccount(admin, asset.id, 'root');
    const res = await admin.post('/api/v1/settings/vault/sync/', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().failed).toEqual([]);
    expect(res.json().synced).toBeGreaterThanOrEqual(1);
    const back = await readSecret(
      { host: vault.url, token: TOKEN, mount: 'gatehouse' },
      `accounts/${a.org_id}/${a.id}`,
    );
    expect(back).toMatchObject({ secret: 'Secret-1x', username: 'root', secret_type: 'password' });
  });

  it('is refused without settings.change_vault', async () => {
    await makeUser(admin, 'novault');
    const c = new SessionClient(t.app);
    await c.login('novault', PASSWORD);
    expect((await c.post('/api/v1/settings/vault/sync/', {})).statusCode).toBe(403);
    expect((await c.get(SETTING)).statusCode).toBe(403);
  });
});
