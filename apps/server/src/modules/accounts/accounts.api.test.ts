import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { ACCOUNTS, SECRETS, TEMPLATES, confirmAdmin, makeHost } from '../../../test-support/accounts.ts';

/** Accounts and templates as the contract describes them: names, usernames, su, on_invalid, bulk, templates, virtual accounts. */
let t: TestApp;
let admin: SessionClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => t?.close());

const patch = (url: string, payload: unknown) => admin.request({ method: 'PATCH', url, payload: payload as object });

describe('accounts', () => {
  it('names accounts after their username, suffixed when taken, and never changes the username', async () => {
    const host = await makeHost(admin);
    const a = (await admin.post(ACCOUNTS, { asset: host.id, username: 'root', secret: 'x1' })).json();
    expect(a).toMatchObject({
      name: 'root',
      username: 'root',
      source: { value: 'local' },
      connectivity: { value: '-' },
    });
    expect(a.asset).toMatchObject({
      id: host.id,
      name: host.name,
      platform: { name: 'Linux' },
      type: { value: 'linux' },
    });
    const b = (
      await admin.post(ACCOUNTS, { asset: host.id, username: 'root', secret_type: 'token', secret: 't' })
    ).json();
    expect(b.name).toMatch(/^root_[0-9a-f]{4}$/);
    const c = await admin.post(ACCOUNTS, { asset: host.id, name: 'root', username: 'other' });
    expect(c.statusCode).toBe(400);
    expect(c.json()).toEqual({ name: [`The asset already has an account named root.`] });
    const d = await patch(`${ACCOUNTS}${a.id}/`, { username: 'admin' });
    expect(d.statusCode).toBe(400);
    expect(d.json().username[0]).toMatch(/cannot be changed/);
    expect((await patch(`${ACCOUNTS}${a.id}/`, { username: 'root', privileged: true })).json().privileged).toBe(true);
    expect((await admin.post(ACCOUNTS, { asset: host.id })).json()).toEqual({ username: ['This field is required.'] });
  });

  it('follows on_invalid for a username the asset already has', async () => {
    const host = await makeHost(admin);
    const first = (await admin.post(ACCOUNTS, { asset: host.id, username: 'dup', secret: 'First-1' })).json();
    const err = await admin.post(ACCOUNTS, { asset: host.id, username: 'dup', secret: 'Second-2' });
    expect(err.statusCode).toBe(400);
    expect(err.json().username[0]).toBe('The asset already has the account dup (password).');
    const skip = await admin.post(ACCOUNTS, {
      asset: host.id,
      username: 'dup',
      secret: 'Second-2',
      on_invalid: 'skip',
    });
    expect(skip.statusCode).toBe(201);
    expect(skip.json()).toMatchObject({ id: first.id, version: 1 });
    const upd = await admin.post(ACCOUNTS, {
      asset: host.id,
      username: 'dup',
      secret: 'Third-3',
      on_invalid: 'update',
    });
    expect(upd.json()).toMatchObject({ id: first.id, version: 2 });
    await confirmAdmin(admin);
    expect((await admin.get(`${SECRETS}${first.id}/`)).json().secret).toBe('Third-3');
    expect((await admin.get(`${ACCOUNTS}?asset=${host.id}`)).json()).toHaveLength(1);
  });

  it('allows su_from only between accounts of one asset whose platform has su', async () => {
    const host = await makeHost(admin);
    const root = (await admin.post(ACCOUNTS, { asset: host.id, username: 'root' })).json();
    const app = (await admin.post(ACCOUNTS, { asset: host.id, username: 'app', su_from: root.id })).json();
    expect(app.su_from).toEqual({ id: root.id, name: 'root', username: 'root' });
    const other = await makeHost(admin);
    const foreign = await admin.post(ACCOUNTS, { asset: other.id, username: 'x', su_from: root.id });
    expect(foreign.json()).toEqual({ su_from: ['Switch from must be an account of the same asset.'] });
    expect((await patch(`${ACCOUNTS}${root.id}/`, { su_from: root.id })).json()).toEqual({
      su_from: ['An account cannot switch from itself.'],
    });
    const choices = (await admin.get(`${ACCOUNTS}su-from-accounts/?account=${app.id}`)).json();
    expect(choices.map((c: { username: string }) => c.username)).toEqual(['root']);
    const win = await makeHost(admin, 22, { platform: 'Windows', protocols: [{ name: 'rdp', port: 3389 }] });
    const w1 = (await admin.post(ACCOUNTS, { asset: win.id, username: 'Administrator' })).json();
    const w2 = await admin.post(ACCOUNTS, { asset: win.id, username: 'user', su_from: w1.id });
    expect(w2.json()).toEqual({ su_from: ['The platform of this asset does not allow switching user (su).'] });
    expect((await admin.get(`${ACCOUNTS}su-from-accounts/?asset=${win.id}`)).json()).toEqual([]);
  });

  it('filters and searches by the account and its asset', async () => {
    const host = await makeHost(admin, 22, { address: '10.9.8.7', name: 'findme-host' });
    await admin.post(ACCOUNTS, { asset: host.id, username: 'searchable', comment: 'note-xyz' });
    await admin.post(ACCOUNTS, { asset: host.id, username: 'keyed', secret_type: 'api_key', secret: 'k' });
    const names = async (q: string) =>
      (await admin.get(`${ACCOUNTS}?${q}`))
        .json()
        .map((a: { username: string }) => a.username)
        .sort();
    expect(await names('search=findme-host')).toEqual(['keyed', 'searchable']);
    expect(await names('search=note-xyz')).toEqual(['searchable']);
    expect(await names('ip=10.9.8.7&secret_type=api_key')).toEqual(['keyed']);
    expect(await names('address=10.9.8.7&has_secret=true')).toEqual(['keyed']);
    expect(await names(`hostname=findme-host&username=searchable`)).toEqual(['searchable']);
    expect(await names(`asset_id=${host.id}&platform=Linux&category=host&type=linux`)).toEqual(['keyed', 'searchable']);
    const root = (await admin.get('/api/v1/assets/nodes/children/')).json()[0];
    expect(await names(`node_id=${root.id}&search=findme`)).toEqual(['keyed', 'searchable']);
    const page = (await admin.get(`${ACCOUNTS}?limit=1&search=findme&order=-username`)).json();
    expect(page).toMatchObject({ count: 2, results: [{ username: 'searchable' }] });
    const sug = (await admin.post(`${ACCOUNTS}username-suggestions/`, { assets: [host.id], username: 'sea' })).json();
    expect(sug).toEqual(['searchable']);
  });

  it('creates one account per asset in bulk/, with a result per asset', async () => {
    const [h1, h2, h3] = [await makeHost(admin), await makeHost(admin), await makeHost(admin)];
    await admin.post(ACCOUNTS, { asset: h2.id, username: 'ops', secret: 'Old-1' });
    const res = await admin.post(`${ACCOUNTS}bulk/`, {
      assets: [h1.id, h2.id, h3.id],
      username: 'ops',
      secret: 'Bulk-1',
      privileged: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { asset: `${h1.name}(127.0.0.1)`, state: 'created', changed: true },
      { asset: `${h2.name}(127.0.0.1)`, state: 'skipped', changed: false },
      { asset: `${h3.name}(127.0.0.1)`, state: 'created', changed: true },
    ]);
    const upd = (
      await admin.post(`${ACCOUNTS}bulk/`, { assets: [h2.id], username: 'ops', secret: 'New-2', on_invalid: 'update' })
    ).json();
    expect(upd).toEqual([{ asset: `${h2.name}(127.0.0.1)`, state: 'updated', changed: true }]);
    const bad = await admin.post(`${ACCOUNTS}bulk/`, {
      assets: [h1.id, h3.id],
      username: 'fresh',
      secret_type: 'ssh_key',
      secret: 'not a key',
      on_invalid: 'error',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()[0]).toMatchObject({ state: 'error', error: expect.stringMatching(/^secret: .*private SSH key/) });
    expect((await admin.get(`${ACCOUNTS}?username=fresh`)).json()).toEqual([]);
    const none = await admin.post(`${ACCOUNTS}bulk/`, { assets: [], username: 'x' });
    expect(none.json()).toEqual({ assets: ['Choose at least one asset.'] });
  });

  it('creates the accounts an asset carries in its own transaction, and shows them on its detail', async () => {
    const res = await admin.post('/api/v1/assets/hosts/', {
      name: 'with-accounts',
      address: '10.0.0.5',
      platform: 'Linux',
      accounts: [
        { username: 'root', secret: 'Root-pass-1', privileged: true },
        { username: 'deploy', secret_type: 'token', secret: 'tok' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const detail = (await admin.get(`/api/v1/assets/hosts/${res.json().id}/`)).json();
    expect(detail.accounts.map((a: { username: string }) => a.username)).toEqual(['deploy', 'root']);
    expect(JSON.stringify(detail)).not.toContain('Root-pass-1');
    const bad = await admin.post('/api/v1/assets/hosts/', {
      name: 'bad-accounts',
      address: '10.0.0.6',
      platform: 'Linux',
      accounts: [{ username: 'ok' }, { username: 'k', secret_type: 'ssh_key', secret: 'nope' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().accounts[1].secret[0]).toMatch(/private SSH key/);
    expect((await admin.get('/api/v1/assets/hosts/?name=bad-accounts')).json()).toEqual([]);
  });

  it('answers a push of no accounts with a clear 400 and refuses unknown actions', async () => {
    // Pushing itself is the push automation's (modules/automations/pushAccount.api.test.ts).
    const push = await admin.post(`${ACCOUNTS}tasks/`, { action: 'push', accounts: [] });
    expect(push.statusCode).toBe(400);
    expect(push.json().accounts[0]).toMatch(/list of account ids/);
    expect((await admin.post(`${ACCOUNTS}tasks/`, { action: 'nope' })).json().action[0]).toMatch(/not a valid action/);
  });
});

describe('account templates', () => {
  it('generates random secrets, creates accounts from the template and syncs a changed secret to them', async () => {
    const tpl = await admin.post(TEMPLATES, {
      name: 'web-admin',
      username: 'webadm',
      secret_strategy: 'random',
      password_rules: { length: 24, lowercase: true, uppercase: true, digit: true, symbol: false },
      privileged: true,
      auto_push: true,
      platforms: [1],
    });
    expect(tpl.statusCode, tpl.body).toBe(201);
    expect(tpl.json()).toMatchObject({ has_secret: true, auto_push: true, platforms: [{ id: 1 }] });
    await confirmAdmin(admin);
    const tsecret = (await admin.get(`/api/v1/accounts/account-template-secrets/${tpl.json().id}/`)).json().secret;
    expect(tsecret).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(tsecret).toMatch(/[a-z]/);
    expect(tsecret).toMatch(/[A-Z]/);
    expect(tsecret).toMatch(/[0-9]/);

    const keyTpl = (
      await admin.post(TEMPLATES, { name: 'key-tpl', username: 'k', secret_type: 'ssh_key', secret_strategy: 'random' })
    ).json();
    expect(keyTpl.spec_info.ssh_key_fingerprint).toMatch(/^SHA256:/);
    expect(
      (
        await admin.post(TEMPLATES, { name: 'tok', username: 't', secret_type: 'token', secret_strategy: 'random' })
      ).json(),
    ).toEqual({
      secret_strategy: ['A random secret is only generated for passwords and SSH keys.'],
    });
    expect((await admin.post(TEMPLATES, { name: 'r', username: 'r', password_rules: { length: 4 } })).statusCode).toBe(
      400,
    );

    const [h1, h2] = [await makeHost(admin), await makeHost(admin)];
    const a1 = (await admin.post(ACCOUNTS, { asset: h1.id, template: tpl.json().id })).json();
    expect(a1).toMatchObject({
      username: 'webadm',
      privileged: true,
      source: { value: 'template' },
      source_id: tpl.json().id,
      version: 1,
    });
    const bulk = (await admin.post(`${ACCOUNTS}bulk/`, { assets: [h2.id], template: tpl.json().id })).json();
    expect(bulk[0].state).toBe('created');
    expect((await admin.get(`${SECRETS}${a1.id}/`)).json().secret).toBe(tsecret);

    // Without is_sync_account the accounts keep their secret; with it every one gets the new one.
    await patch(`${TEMPLATES}${tpl.json().id}/`, { secret: 'Tpl-new-1' });
    expect((await admin.get(`${SECRETS}${a1.id}/`)).json().secret).toBe(tsecret);
    await patch(`${TEMPLATES}${tpl.json().id}/`, { secret: 'Tpl-new-2', is_sync_account: true });
    const derived = (await admin.get(`${SECRETS}?source_id=${tpl.json().id}`)).json();
    expect(derived).toHaveLength(2);
    for (const d of derived) expect(d).toMatchObject({ secret: 'Tpl-new-2', version: 2 });
    const h = (await admin.get(`${SECRETS}${a1.id}/histories/`)).json();
    expect(h).toMatchObject([{ version: 1, secret: tsecret }]);
    const list = (await admin.get(TEMPLATES)).body;
    expect(list).not.toContain('Tpl-new-2');
    expect((await admin.get(`${TEMPLATES}?protocols=rdp`)).json().map((x: { name: string }) => x.name)).toEqual([
      'web-admin',
    ]);
    const su = (await admin.get(`${TEMPLATES}su-from-account-templates/?template_id=${keyTpl.id}`)).json();
    expect(su.map((x: { name: string }) => x.name)).toEqual(['web-admin']);
  });
});

describe('virtual accounts', () => {
  it('creates @INPUT, @USER and @ANON on first use; only @USER changes', async () => {
    const list = (await admin.get('/api/v1/accounts/virtual-accounts/')).json();
    expect(list.map((v: { alias: string }) => v.alias)).toEqual(['@ANON', '@INPUT', '@USER']);
    expect(list[2]).toMatchObject({ name: 'Dynamic user', username: '@USER', secret_from_login: false });
    const user = await patch('/api/v1/accounts/virtual-accounts/@USER/', { secret_from_login: true });
    expect(user.json().secret_from_login).toBe(true);
    const input = await patch(`/api/v1/accounts/virtual-accounts/${list[1].id}/`, { comment: 'x' });
    expect(input.statusCode).toBe(400);
    expect(input.json().error).toMatch(/Only the dynamic user/);
    expect((await admin.get('/api/v1/accounts/virtual-accounts/')).json()).toHaveLength(3);
  });
});
