import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLES, BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { confirmPassword, signedHeaders } from '../../../../test-support/profile.ts';
import { createUser, USER_PASSWORD } from '../../../../test-support/auth.ts';
import { makeAccount, makeAsset, makePerm, makeUser, type Row } from '../../../../test-support/perms.ts';

/**
 * `super-connection-token/` as a terminal component uses it: tokens made for a named user (checked
 * as that user), the account's secret only to a caller signing with an access key (never a browser
 * session), given once for a one-time token, logged without the secret, and renewal.
 */
const SCT = '/api/v1/authentication/super-connection-token/';
let t: TestApp;
let admin: SessionClient;
let asset: Row;
let account: Row;
let component: { client: SessionClient; key: { id: string; secret: string } };
let plain: { client: SessionClient; key: { id: string; secret: string } };
let n = 0;

/** A user holding `role`, signed in, with an access key. */
async function caller(role: string): Promise<{ client: SessionClient; key: { id: string; secret: string } }> {
  const username = `sct-${++n}`;
  const id = await createUser(t, username);
  await t.deps.database.db
    .insertInto('rbac_rolebinding')
    .values(
      [role, BUILTIN_ROLE_IDS.User].map((r) => ({
        id: randomUUID(),
        user_id: id,
        role_id: r,
        scope: 'system' as const,
        org_id: null,
        created_by: 'test',
        date_created: new Date().toISOString(),
      })),
    )
    .execute();
  const client = new SessionClient(t.app);
  expect((await client.login(username, USER_PASSWORD)).statusCode).toBe(200);
  await confirmPassword(client);
  const key = (await client.post('/api/v1/authentication/access-keys/', {})).json();
  return { client, key };
}

/** A request signed with the caller's access key, as a component sends it. */
function signed(k: { id: string; secret: string }, method: string, url: string, payload?: Row, org?: string) {
  // A fresh nonce header in the signature: two calls in one second are not a replay.
  const headers = signedHeaders(
    k.id,
    k.secret,
    method,
    url,
    { accept: 'application/json', date: new Date().toUTCString(), 'x-nonce': randomUUID() },
    ['(request-target)', 'accept', 'date', 'x-nonce'],
  );
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...(org ? { 'x-jms-org': org } : {}) },
    ...(payload ? { payload } : {}),
  });
}

async function permedUser(body: Row = {}): Promise<Row> {
  const u = await makeUser(admin, `sct-user-${++n}`);
  await makePerm(admin, { users: [u.id], assets: [asset.id], accounts: ['@ALL'], actions: ['connect'], ...body });
  return u;
}

async function tokenFor(userId: string): Promise<Row> {
  const res = await signed(component.key, 'POST', SCT, {
    user: userId,
    asset: asset.id,
    account: account.name,
    protocol: 'ssh',
    connect_method: 'web_cli',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const secretOf = (id: string, extra: Row = {}) => signed(component.key, 'POST', `${SCT}secret/`, { id, ...extra });

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  asset = await makeAsset(admin, [], undefined, 'sct-host');
  account = await makeAccount(admin, asset.id, 'root');
  component = await caller(BUILTIN_ROLE_IDS.SystemComponent);
  plain = await caller(BUILTIN_ROLE_IDS.SystemAuditor);
}, 60_000);
afterAll(async () => t?.close());

describe('creating and listing', () => {
  it('makes a token for the named user, checked as that user, and lists every token', async () => {
    const u = await permedUser();
    const tok = await tokenFor(u.id);
    expect(tok).toMatchObject({ user: { id: u.id }, asset: { id: asset.id }, account: 'root', is_expired: false });
    const list = (await signed(component.key, 'GET', SCT)).json() as Row[];
    expect(list.map((x) => x.id)).toContain(tok.id);
    expect(JSON.stringify(list)).not.toContain('Secret-1x');
  });

  it('refuses a user the asset is not permed to, and an unknown user', async () => {
    const u = await makeUser(admin, `sct-unpermed-${++n}`);
    const body = { user: u.id, asset: asset.id, account: 'root', protocol: 'ssh', connect_method: 'web_cli' };
    const res = await signed(component.key, 'POST', SCT, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('perm_account_invalid');
    const ghost = await signed(component.key, 'POST', SCT, { ...body, user: randomUUID() });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().user).toBeDefined();
  });

  it('is held by no builtin role but the system component (and the administrator, who holds all)', () => {
    for (const perm of [
      'authentication.view_superconnectiontoken',
      'authentication.add_superconnectiontoken',
      'authentication.view_superconnectiontokensecret',
    ])
      expect(BUILTIN_ROLES.filter((r) => r.permissions.includes(perm)).map((r) => r.name)).toEqual([
        'SystemAdmin',
        'SystemComponent',
      ]);
  });

  it('refuses callers without the permission', async () => {
    expect((await signed(plain.key, 'GET', SCT)).statusCode).toBe(403);
    expect((await signed(plain.key, 'POST', SCT, { asset: asset.id, account: 'root' })).statusCode).toBe(403);
  });
});

describe('reading the secret', () => {
  it('answers the contract shape with the secret once, and logs the read without it', async () => {
    const u = await permedUser();
    const tok = await tokenFor(u.id);
    const res = await secretOf(tok.id);
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({
      id: tok.id,
      value: tok.value,
      user: { id: u.id, username: u.username, email: u.email },
      asset: { id: asset.id, name: 'sct-host', address: '10.0.0.1', protocols: [{ name: 'ssh', port: 22 }] },
      account: { id: account.id, username: 'root', secret: 'Secret-1x', su_from: null, privileged: false },
      platform: { name: 'Linux' },
      protocol: 'ssh',
      domain: null,
      connect_method: { value: 'web_cli', type: 'web', component: 'koko' },
    });
    expect(out.actions.map((a: Row) => a.value)).toContain('connect');
    expect(out.expire_at).toBeGreaterThan(Date.now() / 1000);
    // Given once: the call spent the one-time token.
    expect((await secretOf(tok.id)).statusCode).toBe(404);
    const logs = await t.deps.database.db
      .selectFrom('audits_operatelog')
      .selectAll()
      .where('resource_id', '=', tok.id)
      .execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.action).toBe('view');
    expect(logs[0]!.user).toContain('sct-1');
    expect(logs[0]!.resource).toContain('sct-host');
    expect(logs[0]!.resource).toContain('root(root)');
    expect(logs[0]!.resource).toContain(u.username);
    expect(JSON.stringify(logs)).not.toContain('Secret-1x');
    // The operate log names the model in the reader's language, not as `superconnectiontoken`.
    for (const [cookie, name] of [
      ['en', 'Super connection token'],
      ['zh-hans', '超级连接令牌'],
      ['ja', 'スーパー接続トークン'],
    ]) {
      const shown = await admin.get(`/api/v1/audits/operate-logs/?search=${encodeURIComponent(u.username)}`, {
        cookie: `${admin.jar.header()}; django_language=${cookie}`,
      });
      expect((shown.json() as Row[]).map((l) => l.resource_type)).toEqual([name]);
    }
  });

  it('gives the domain gateway with its account to reach the asset through', async () => {
    const domain = (await admin.post('/api/v1/assets/domains/', { name: `sct-dmz-${++n}` })).json();
    const gw = await admin.post('/api/v1/assets/gateways/', {
      name: `sct-jump-${n}`,
      address: '10.9.9.9',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: 2222 }],
    });
    expect(gw.statusCode, gw.body).toBe(201);
    const gwAccount = await admin.post('/api/v1/accounts/accounts/', {
      asset: gw.json().id,
      username: 'jump',
      secret: 'Jump-secret-1',
    });
    expect(gwAccount.statusCode, gwAccount.body).toBe(201);
    await admin.request({ method: 'PATCH', url: `/api/v1/assets/hosts/${asset.id}/`, payload: { domain: domain.id } });
    try {
      const res = await secretOf((await tokenFor((await permedUser()).id)).id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        domain: { id: domain.id },
        gateway: {
          id: gw.json().id,
          address: '10.9.9.9',
          protocols: [{ name: 'ssh', port: 2222 }],
          account: { username: 'jump', secret: 'Jump-secret-1', secret_type: { value: 'password' } },
        },
      });
    } finally {
      await admin.request({ method: 'PATCH', url: `/api/v1/assets/hosts/${asset.id}/`, payload: { domain: null } });
    }
  });

  it('refuses a browser session holding the permission, and leaves the token unspent', async () => {
    const tok = await tokenFor((await permedUser()).id);
    const res = await component.client.post(`${SCT}secret/`, { id: tok.id });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('permission_denied');
    expect(res.body).not.toContain('Secret-1x');
    expect((await secretOf(tok.id)).statusCode).toBe(200);
  });

  it('refuses a person’s bearer token, and gives it to a service account’s', async () => {
    const username = `sct-${++n}`;
    const id = await createUser(t, username);
    await t.deps.database.db
      .insertInto('rbac_rolebinding')
      .values({
        id: randomUUID(),
        user_id: id,
        role_id: BUILTIN_ROLE_IDS.SystemComponent,
        scope: 'system',
        org_id: null,
        created_by: 'test',
        date_created: new Date().toISOString(),
      })
      .execute();
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authentication/auth/',
      payload: { username, password: USER_PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(201);
    const bearer = (tokenId: string) =>
      t.app.inject({
        method: 'POST',
        url: `${SCT}secret/`,
        headers: { authorization: `Bearer ${signIn.json().token}` },
        payload: { id: tokenId },
      });
    const tok = await tokenFor((await permedUser()).id);
    const person = await bearer(tok.id);
    expect(person.statusCode).toBe(403);
    expect(person.json().code).toBe('permission_denied');
    await t.deps.database.db.updateTable('users_user').set({ is_service_account: true }).where('id', '=', id).execute();
    const service = await bearer(tok.id);
    expect(service.statusCode, service.body).toBe(200);
    expect(service.json().account.secret).toBe('Secret-1x');
  });

  it('refuses an access key without the permission', async () => {
    const tok = await tokenFor((await permedUser()).id);
    expect((await signed(plain.key, 'POST', `${SCT}secret/`, { id: tok.id })).statusCode).toBe(403);
    expect((await secretOf(tok.id)).statusCode).toBe(200);
  });

  it('refuses a token of another org than the request names', async () => {
    const org = (await admin.post('/api/v1/orgs/orgs/', { name: `sct-org-${++n}` })).json();
    const hostB = await makeAsset(admin, [], org.id, 'sct-host-b');
    await makeAccount(admin, hostB.id, 'root', org.id);
    const u = await makeUser(admin, `sct-b-${++n}`, org.id);
    await makePerm(admin, { users: [u.id], assets: [hostB.id], accounts: ['@ALL'], actions: ['connect'] }, org.id);
    const body = { user: u.id, asset: hostB.id, account: 'root', protocol: 'ssh', connect_method: 'web_cli' };
    // Named from the default org, the other org's asset is one the component cannot name.
    const refused = await signed(component.key, 'POST', SCT, body);
    expect(refused.statusCode).toBe(400);
    const made = await signed(component.key, 'POST', SCT, body, 'ROOT');
    expect(made.statusCode, made.body).toBe(201);
    expect((await secretOf(made.json().id)).statusCode).toBe(404);
    expect((await signed(component.key, 'GET', SCT)).json().map((x: Row) => x.id)).not.toContain(made.json().id);
    expect((await signed(component.key, 'POST', `${SCT}secret/`, { id: made.json().id }, 'ROOT')).statusCode).toBe(200);
  });

  it('refuses an expired token and one whose permission was revoked since', async () => {
    const tok = await tokenFor((await permedUser()).id);
    await t.deps.database.db
      .updateTable('authentication_connectiontoken')
      .set({ date_expired: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', tok.id)
      .execute();
    expect((await secretOf(tok.id)).statusCode).toBe(404);
    const u = await permedUser();
    const live = await tokenFor(u.id);
    await t.deps.database.db.deleteFrom('perms_assetpermission_users').where('user_id', '=', u.id).execute();
    const res = await secretOf(live.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('perm_account_invalid');
    expect(res.body).not.toContain('Secret-1x');
  });

  it('refuses the secret when a login-asset rule rejects the user since the token was made', async () => {
    const u = await permedUser();
    const tok = await tokenFor(u.id);
    const rule = await admin.post('/api/v1/acls/login-asset-acls/', {
      name: `sct-deny-${++n}`,
      users: { type: 'ids', ids: [u.id] },
      assets: { type: 'all' },
      accounts: ['@ALL'],
      action: 'reject',
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const res = await secretOf(tok.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('acl_reject');
    expect(res.body).not.toContain('Secret-1x');
  });

  it("hands over the command filter rules of the token's user, asset and account, in priority order", async () => {
    const u = await permedUser();
    const other = await permedUser();
    const me = (await admin.get('/api/v1/users/profile/')).json();
    const group = (
      await admin.post('/api/v1/acls/command-groups/', { name: `sct-cg-${++n}`, content: 'rm -rf\nreboot' })
    ).json();
    const regexGroup = (
      await admin.post('/api/v1/acls/command-groups/', {
        name: `sct-re-${n}`,
        type: 'regex',
        content: '^shutdown',
        ignore_case: false,
      })
    ).json();
    const cfa = async (name: string, body: Row) => {
      const res = await admin.post('/api/v1/acls/command-filter-acls/', {
        name,
        action: 'reject',
        users: { type: 'ids', ids: [u.id] },
        assets: { type: 'ids', ids: [asset.id] },
        accounts: ['@ALL'],
        command_groups: [group.id],
        ...body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };
    const late = await cfa(`sct-late-${n}`, { priority: 60, action: 'warning' });
    const early = await cfa(`sct-early-${n}`, {
      priority: 5,
      action: 'review',
      accounts: ['root'],
      command_groups: [regexGroup.id],
      reviewers: [me.id],
    });
    // None of these select this token: another user, another account, another asset, inactive.
    await cfa(`sct-other-user-${n}`, { priority: 1, users: { type: 'ids', ids: [other.id] } });
    await cfa(`sct-other-account-${n}`, { priority: 1, accounts: ['admin'] });
    await cfa(`sct-other-asset-${n}`, { priority: 1, assets: { type: 'ids', ids: [randomUUID()] } });
    await cfa(`sct-inactive-${n}`, { priority: 1, is_active: false });

    const res = await secretOf((await tokenFor(u.id)).id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().command_filter_acls).toEqual([
      {
        id: early.id,
        name: `sct-early-${n}`,
        command_groups: [
          {
            id: regexGroup.id,
            name: `sct-re-${n}`,
            type: 'regex',
            content: '^shutdown',
            ignore_case: false,
            pattern: '(?:^shutdown)',
          },
        ],
        action: 'review',
        reviewers: [{ id: me.id, name: me.name }],
        priority: 5,
        is_active: true,
      },
      {
        id: late.id,
        name: `sct-late-${n}`,
        command_groups: [
          {
            id: group.id,
            name: `sct-cg-${n}`,
            type: 'command',
            content: 'rm -rf\nreboot',
            ignore_case: true,
            pattern: expect.stringContaining('reboot'),
          },
        ],
        action: 'warning',
        reviewers: [],
        priority: 60,
        is_active: true,
      },
    ]);
    // The other user's token gets only the rule written for them.
    const theirs = (await secretOf((await tokenFor(other.id)).id)).json();
    expect(theirs.command_filter_acls.map((r: Row) => r.name)).toEqual([`sct-other-user-${n}`]);
  });

  it("hands over a database's certificates as the asset's secret_info (the asset API never shows them) and its settings as spec_info", async () => {
    const dbAsset = await admin.post('/api/v1/assets/databases/', {
      name: `sct-db-${++n}`,
      address: '10.0.0.9',
      platform: 'MySQL',
      db_name: 'shop',
      use_ssl: true,
      ca_cert: 'CA-PEM-1',
      client_cert: 'CERT-PEM-1',
      client_key: 'KEY-PEM-1',
    });
    expect(dbAsset.statusCode, dbAsset.body).toBe(201);
    // The built-in gateway has no database connect method, and the MySQL platform no SSH: the
    // component's token asks for SSH, which the test lets this asset offer.
    await t.deps.database.db
      .insertInto('assets_protocol')
      .values({ id: randomUUID(), asset_id: dbAsset.json().id, name: 'ssh', port: 22 })
      .execute();
    expect(dbAsset.body).not.toContain('KEY-PEM-1');
    const dbAccount = await makeAccount(admin, dbAsset.json().id, 'dba');
    const u = await makeUser(admin, `sct-dbuser-${n}`);
    await makePerm(admin, { users: [u.id], assets: [dbAsset.json().id], accounts: ['@ALL'], actions: ['connect'] });
    const made = await signed(component.key, 'POST', SCT, {
      user: u.id,
      asset: dbAsset.json().id,
      account: dbAccount.name,
      protocol: 'ssh',
      connect_method: 'web_cli',
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await secretOf(made.json().id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().asset.secret_info).toEqual({
      ca_cert: 'CA-PEM-1',
      client_cert: 'CERT-PEM-1',
      client_key: 'KEY-PEM-1',
    });
    expect(res.json().asset.spec_info).toEqual({ db_name: 'shop', use_ssl: true, allow_invalid_cert: false });
    // A host has neither.
    const host = (await secretOf((await tokenFor((await permedUser()).id)).id)).json();
    expect(host.asset).toMatchObject({ secret_info: {}, spec_info: {} });
  });

  it('answers a clear 400 for a missing id or a non-boolean expire_now', async () => {
    const missing = await signed(component.key, 'POST', `${SCT}secret/`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().id).toBeDefined();
    const bad = await secretOf(randomUUID(), { expire_now: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().expire_now).toBeDefined();
    expect((await secretOf('not-a-uuid')).statusCode).toBe(404);
  });
});

describe('renewal', () => {
  it('extends a live token by the one-time lifetime, never past the permission', async () => {
    const tok = await tokenFor((await permedUser()).id);
    const soon = new Date(Date.now() + 10_000).toISOString();
    const db = t.deps.database.db;
    await db
      .updateTable('authentication_connectiontoken')
      .set({ date_expired: soon })
      .where('id', '=', tok.id)
      .execute();
    const res = await signed(component.key, 'PATCH', `${SCT}renewal/`, { id: tok.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ok).toBe(true);
    const row = await db
      .selectFrom('authentication_connectiontoken')
      .selectAll()
      .where('id', '=', tok.id)
      .executeTakeFirstOrThrow();
    const left = (Date.parse(row.date_expired) - Date.now()) / 1000;
    expect(left).toBeGreaterThan(250);
    expect(left).toBeLessThanOrEqual(300);

    const short = await tokenFor((await permedUser({ date_expired: new Date(Date.now() + 60_000).toISOString() })).id);
    await db
      .updateTable('authentication_connectiontoken')
      .set({ date_expired: soon })
      .where('id', '=', short.id)
      .execute();
    expect((await signed(component.key, 'PATCH', `${SCT}renewal/`, { id: short.id })).statusCode).toBe(200);
    const capped = await db
      .selectFrom('authentication_connectiontoken')
      .selectAll()
      .where('id', '=', short.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(capped.date_expired) - Date.now()).toBeLessThanOrEqual(60_000);
    expect(Date.parse(capped.date_expired) - Date.now()).toBeGreaterThan(30_000);
  });

  it('refuses an expired token, an unknown one, and callers without the permission', async () => {
    const tok = await tokenFor((await permedUser()).id);
    await secretOf(tok.id);
    const spent = await signed(component.key, 'PATCH', `${SCT}renewal/`, { id: tok.id });
    expect(spent.statusCode).toBe(403);
    expect(spent.json().code).toBe('token_expired');
    expect((await signed(component.key, 'PATCH', `${SCT}renewal/`, { id: randomUUID() })).statusCode).toBe(404);
    const live = await tokenFor((await permedUser()).id);
    expect((await signed(plain.key, 'PATCH', `${SCT}renewal/`, { id: live.id })).statusCode).toBe(403);
  });
});
