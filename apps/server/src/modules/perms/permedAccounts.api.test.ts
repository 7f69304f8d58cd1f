import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeAccount, makeAsset, makeNode, makePerm, makeUser, P, type Row } from '../../../test-support/perms.ts';
import { grantsPort } from './grantsPort.ts';

/**
 * The permed accounts of an asset, case by case as the contract's algorithm: each alias, a
 * username, @ALL, a template, overlapping permissions (actions OR-ed, the latest expiry), expired
 * and inactive permissions, grants through a group and through an ancestor node.
 */
let t: TestApp;
let admin: SessionClient;
let asset: Row;
let node: Row;
let parent: Row;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  parent = await makeNode(admin, 'Acc');
  node = await makeNode(admin, 'Acc/Leaf');
  asset = await makeAsset(admin, [node.id], DEFAULT_ORG_ID, 'acc-host');
  for (const name of ['root', 'admin', 'dave']) await makeAccount(admin, asset.id, name);
  const old = await makeAccount(admin, asset.id, 'old');
  await admin.request({ method: 'PATCH', url: `/api/v1/accounts/accounts/${old.id}/`, payload: { is_active: false } });
});
afterAll(async () => t.close());

async function freshUser(name?: string): Promise<Row> {
  n += 1;
  return makeUser(admin, name ?? `acc-user-${n}`);
}

async function accountsOf(user: Row): Promise<Row[]> {
  const res = await admin.get(`${P}/users/${user.id}/assets/${asset.id}/accounts/`, { 'accept-language': 'en' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const brief = (rows: Row[]) =>
  rows.map((r) => `${r.alias}:${r.username}:${r.actions.map((x: Row) => x.value).join('+')}`).sort();

describe('permed accounts', () => {
  it('@ALL grants every active account, with the output shape of the contract', async () => {
    const user = await freshUser();
    await makePerm(admin, { users: [user.id], assets: [asset.id], accounts: ['@ALL'], actions: ['connect'] });
    const rows = await accountsOf(user);
    expect(brief(rows)).toEqual(['admin:admin:connect', 'dave:dave:connect', 'root:root:connect']);
    expect(rows[0]).toEqual({
      id: expect.any(String),
      alias: expect.any(String),
      name: expect.any(String),
      username: expect.any(String),
      has_username: true,
      has_secret: true,
      secret_type: 'password',
      actions: [{ value: 'connect', label: 'Connect (All protocols)' }],
    });
  });

  it('a username grants the accounts with that username only', async () => {
    const user = await freshUser();
    await makePerm(admin, { users: [user.id], assets: [asset.id], accounts: ['root', 'nobody'], actions: ['connect'] });
    expect(brief(await accountsOf(user))).toEqual(['root:root:connect']);
  });

  it('@USER is the namesake account, else a virtual account with the user username', async () => {
    const dave = await freshUser('dave');
    await makePerm(admin, { users: [dave.id], assets: [asset.id], accounts: ['@USER'], actions: ['connect'] });
    const real = await accountsOf(dave);
    expect(brief(real)).toEqual(['dave:dave:connect']);
    const other = await freshUser();
    await makePerm(admin, { users: [other.id], assets: [asset.id], accounts: ['@USER'], actions: ['connect'] });
    const virtual = await accountsOf(other);
    expect(virtual).toHaveLength(1);
    expect(virtual[0]).toMatchObject({
      alias: '@USER',
      username: other.username,
      name: 'Same account',
      has_secret: false,
    });
  });

  it('@INPUT and @ANON are virtual accounts with a new id on every call', async () => {
    const user = await freshUser();
    await makePerm(admin, {
      users: [user.id],
      assets: [asset.id],
      accounts: ['@INPUT', '@ANON'],
      actions: ['connect'],
    });
    const first = await accountsOf(user);
    expect(brief(first)).toEqual(['@ANON:@ANON:connect', '@INPUT:@INPUT:connect']);
    expect(first.find((r) => r.alias === '@INPUT')).toMatchObject({ name: 'Manual input', has_username: false });
    const second = await accountsOf(user);
    expect(second[0]!.id).not.toBe(first[0]!.id);
  });

  it('a template grants the accounts with its username', async () => {
    const tpl = await admin.post('/api/v1/accounts/account-templates/', {
      name: 'tpl-admin',
      username: 'admin',
      secret_type: 'password',
      secret: 'Tpl-secret-1',
    });
    expect(tpl.statusCode, tpl.body).toBe(201);
    const user = await freshUser();
    await makePerm(admin, {
      users: [user.id],
      assets: [asset.id],
      accounts: [`%${tpl.json().id}`],
      actions: ['connect'],
    });
    expect(brief(await accountsOf(user))).toEqual(['admin:admin:connect']);
  });

  it('OR-s the actions of overlapping permissions and keeps the latest expiry', async () => {
    const user = await freshUser();
    await makePerm(admin, {
      users: [user.id],
      assets: [asset.id],
      accounts: ['root'],
      actions: ['connect'],
      date_expired: '2090-01-01T00:00:00Z',
    });
    await makePerm(admin, {
      users: [user.id],
      nodes: [parent.id],
      accounts: ['root', '@INPUT'],
      actions: ['upload', 'copy'],
      date_expired: '2095-01-01T00:00:00Z',
    });
    expect(brief(await accountsOf(user))).toEqual(['@INPUT:@INPUT:upload+copy', 'root:root:connect+upload+copy']);
    const port = await grantsPort(t.deps.database.db, t.deps.database.dialect).permedAccountsOf(user.id, asset.id);
    expect(await grantsPort(t.deps.database.db, t.deps.database.dialect).isAssetGranted(user.id, asset.id)).toBe(true);
    expect(port.find((a) => a.username === 'root')).toMatchObject({
      actions: 1 | 2 | 8,
      date_expired: '2095-01-01T00:00:00.000Z',
      real: true,
    });
  });

  it('expired, not yet started and inactive permissions grant nothing', async () => {
    const user = await freshUser();
    await makePerm(admin, {
      users: [user.id],
      assets: [asset.id],
      date_start: '2020-01-01T00:00:00Z',
      date_expired: '2021-01-01T00:00:00Z',
    });
    await makePerm(admin, { users: [user.id], assets: [asset.id], date_start: '2090-01-01T00:00:00Z' });
    await makePerm(admin, { users: [user.id], assets: [asset.id], is_active: false });
    expect(await accountsOf(user)).toEqual([]);
    expect((await admin.get(`${P}/users/${user.id}/assets/`)).json()).toEqual([]);
  });

  it('grants through a group and through an ancestor node', async () => {
    const user = await freshUser();
    const group = (await admin.post('/api/v1/users/groups/', { name: `acc-group-${n}`, users: [user.id] })).json();
    await makePerm(admin, { user_groups: [group.id], nodes: [parent.id], accounts: ['admin'], actions: ['download'] });
    expect(brief(await accountsOf(user))).toEqual(['admin:admin:download']);
  });

  it('answers nothing for an asset that is not granted', async () => {
    const user = await freshUser();
    expect(await accountsOf(user)).toEqual([]);
  });
});

describe('permed accounts across orgs', () => {
  it('does not find an asset of another org', async () => {
    const orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Acc org B' })).json().id;
    const other = await makeAsset(admin, [], orgB, 'b-host');
    const res = await admin.get(`${P}/users/self/assets/${other.id}/accounts/`);
    expect(res.statusCode).toBe(404);
    expect((await admin.get(`${P}/users/self/assets/${other.id}/accounts/`, { 'x-jms-org': orgB })).statusCode).toBe(
      200,
    );
  });
});
