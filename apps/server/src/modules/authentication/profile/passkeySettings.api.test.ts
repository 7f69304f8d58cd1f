import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { confirmPassword, signedInUser } from '../../../../test-support/profile.ts';
import { customRole } from '../../../../test-support/roles.ts';

/**
 * Settings › Auth › Passkey (`?category=passkey`, contract §4.18: superusers only): the switch
 * turns the sign-in API off, FIDO_SERVER_ID must be a host name and becomes the relying party.
 */
let t: TestApp;
let admin: SessionClient;
const URL = '/api/v1/settings/setting/?category=passkey';
const PK = '/api/v1/authentication/passkeys/';

const patch = (c: SessionClient, payload: object, lang = 'en') =>
  c.request({ method: 'PATCH', url: URL, payload, headers: { 'accept-language': lang } });

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('passkey settings', () => {
  it('reads and saves the three fields; the switch refuses the passkey sign-in with a clear message', async () => {
    expect((await admin.get(URL)).json()).toEqual({
      AUTH_PASSKEY: false,
      FIDO_SERVER_ID: '',
      FIDO_SERVER_NAME: 'Gatehouse',
    });
    const login = new SessionClient(t.app);
    await login.get('/core/auth/login/');
    const off = await login.get(`${PK}auth/`);
    expect(off.statusCode).toBe(400);
    expect(off.json()).toMatchObject({ code: 'passkey_disabled', detail: 'Passkey sign-in is not enabled.' });
    expect((await login.get('/api/v1/settings/public/open/')).json().AUTH_PASSKEY).toBe(false);

    const on = await patch(admin, { AUTH_PASSKEY: true, FIDO_SERVER_NAME: 'Acme bastion' });
    expect(on.statusCode, on.body).toBe(200);
    expect((await login.get('/api/v1/settings/public/open/')).json().AUTH_PASSKEY).toBe(true);
    const options = await login.get(`${PK}auth/`);
    expect(options.statusCode).toBe(200);
    expect(options.json().rpId).toBe('localhost');
  });

  it('takes FIDO_SERVER_ID only as a host name, in lower case, and uses it as the relying party', async () => {
    for (const bad of ['https://bastion.example.com', 'bastion.example.com:443', '10.0.0.1', 'a..b', '-x.example'])
      expect((await patch(admin, { FIDO_SERVER_ID: bad })).json(), bad).toEqual({
        FIDO_SERVER_ID: [
          `“${bad}” is not a host name (such as gatehouse.example.com: no scheme, port, path or IP address).`,
        ],
      });
    const zh = await patch(admin, { FIDO_SERVER_ID: 'a/b' }, 'zh');
    expect(zh.statusCode).toBe(400);
    expect(zh.json().FIDO_SERVER_ID[0]).toMatch(/不是主机名/);
    expect(await t.deps.settings.get('FIDO_SERVER_ID')).toBe('');

    const saved = await patch(admin, { AUTH_PASSKEY: true, FIDO_SERVER_ID: 'Bastion.Example.COM' });
    expect(saved.json().FIDO_SERVER_ID).toBe('bastion.example.com');
    const carol = await signedInUser(t, 'carol');
    await confirmPassword(carol.client);
    const reg = (await carol.client.get(`${PK}register/?name=laptop`)).json();
    expect(reg.rp).toEqual({ id: 'bastion.example.com', name: 'Acme bastion' });
    expect((await patch(admin, { FIDO_SERVER_ID: '' })).json().FIDO_SERVER_ID).toBe('');
    expect((await t.app.inject({ method: 'GET', url: `${PK}auth/` })).json().rpId).toBe('localhost');
  });

  it('is for superusers only, as the contract says: an auth-settings administrator is refused', async () => {
    const role = await customRole(t.deps.database.db, 'auth-admin', 'system', [
      'settings.view_setting',
      'settings.change_auth',
    ]);
    const dave = await signedInUser(t, 'dave');
    await t.deps.database.db
      .insertInto('rbac_rolebinding')
      .values({
        id: randomUUID(),
        user_id: dave.id,
        role_id: role,
        scope: 'system',
        org_id: null,
        created_by: 'test',
        date_created: new Date().toISOString(),
      })
      .execute();
    expect((await dave.client.get('/api/v1/settings/setting/?category=auth')).statusCode).toBe(200);
    expect((await dave.client.get(URL)).statusCode).toBe(403);
    expect((await patch(dave.client, { AUTH_PASSKEY: false })).statusCode).toBe(403);
    expect(await t.deps.settings.get('AUTH_PASSKEY')).toBe(true);
  });
});
