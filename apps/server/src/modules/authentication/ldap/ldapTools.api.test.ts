import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, DEFAULT_ORG_ID, ROOT_ORG_ID, SYSTEM_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import {
  LDAP_READER_PASSWORD,
  LDAP_USERS_OU,
  ldapSettings,
  startSlapd,
  type Slapd,
} from '../../../../test-support/slapd.ts';

/**
 * The LDAP settings and tools against a real slapd: validation, the sealed bind password, the test
 * routes, the cached user list (paged past the directory's 500-entry limit) and the import.
 * LDAP_IMPORT_USERS sets the directory's size (10,000 by default; `npm run bench` style runs may raise it).
 */
const BULK = Number(process.env.LDAP_IMPORT_USERS ?? 10_000);
let t: TestApp;
let admin: SessionClient;
let slapd: Slapd;
const SETTINGS = '/api/v1/settings/setting/?category=ldap';
const TOOLS = '/api/v1/settings/ldap/';

const settings = () => ldapSettings(slapd, { AUTH_LDAP_SEARCH_PAGED_SIZE: 1000 });

/** Reads the user list, waiting for the sync the first look starts. */
async function syncedUsers(query = ''): Promise<{ statusCode: number; json: () => unknown }> {
  let res: Awaited<ReturnType<SessionClient['get']>> | undefined;
  // 409 while the sync runs.
  await expect
    .poll(async () => (res = await admin.get(`${TOOLS}users/${query}`)).statusCode, { timeout: 30_000, interval: 100 })
    .not.toBe(409);
  return res!;
}

beforeAll(async () => {
  slapd = await startSlapd({
    users: [
      { username: 'alice', password: 'Alice-pass-1', groups: ['dev'] },
      { username: 'nomail', password: 'Nomail-pass-1', email: null },
      { username: 'admin', password: 'Admin-ldap-1', email: 'ldap-admin@example.org' },
    ],
    bulk: BULK,
  });
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 60_000);
afterAll(async () => {
  await t.close();
  slapd.stop();
});

describe('LDAP settings', () => {
  it('refuses a bad filter, a map without username and a non-LDAP address, each with its message', async () => {
    const res = await admin.patch(SETTINGS, {
      AUTH_LDAP_SEARCH_FILTER: '(&(cn=%(user)s)',
      AUTH_LDAP_USER_ATTR_MAP: { name: 'sn' },
      AUTH_LDAP_SERVER_URI: 'http://example.org',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      AUTH_LDAP_SEARCH_FILTER: [expect.stringMatching(/^Not a valid LDAP search filter/)],
      AUTH_LDAP_USER_ATTR_MAP: ['The attribute map must include a username mapping.'],
      AUTH_LDAP_SERVER_URI: ['The server address must start with ldap:// or ldaps://.'],
    });
    const noUser = await admin.patch(SETTINGS, { AUTH_LDAP_SEARCH_FILTER: '(cn=alice)' });
    expect(noUser.json()).toEqual({ AUTH_LDAP_SEARCH_FILTER: ['The search filter must contain %(user)s.'] });
    const zh = await admin.patch(SETTINGS, { AUTH_LDAP_USER_ATTR_MAP: '{"name":' }, { 'accept-language': 'zh-CN' });
    expect(zh.json()).toEqual({ AUTH_LDAP_USER_ATTR_MAP: ['不是有效的 JSON 格式。'] });
  });

  it('takes only organisations users can join for the synchronised users, saving nothing else', async () => {
    for (const id of [SYSTEM_ORG_ID, ROOT_ORG_ID, '7f000000-0000-4000-8000-000000000000']) {
      const res = await admin.patch(SETTINGS, {
        AUTH_LDAP_SYNC_ORG_IDS: [DEFAULT_ORG_ID, id],
        AUTH_LDAP_CONNECT_TIMEOUT: 7,
      });
      expect(res.statusCode, id).toBe(400);
      expect(res.json()).toEqual({ AUTH_LDAP_SYNC_ORG_IDS: [`Not an organisation users can be members of: ${id}`] });
    }
    expect((await admin.get(SETTINGS)).json().AUTH_LDAP_CONNECT_TIMEOUT).not.toBe(7);
    expect((await admin.patch(SETTINGS, { AUTH_LDAP_SYNC_ORG_IDS: [DEFAULT_ORG_ID] })).statusCode).toBe(200);
  });

  it('keeps the bind password sealed at rest, never returns it, and keeps it when sent empty', async () => {
    expect((await admin.patch(SETTINGS, settings())).statusCode).toBe(200);
    const row = await t.deps.database.db
      .selectFrom('settings_setting')
      .selectAll()
      .where('name', '=', 'AUTH_LDAP_BIND_PASSWORD')
      .executeTakeFirstOrThrow();
    expect(row.value).not.toContain(LDAP_READER_PASSWORD);
    expect(JSON.parse(row.value)).toMatch(/^gh1\$/);
    expect(Boolean(row.encrypted)).toBe(true);
    const got = await admin.get(SETTINGS);
    expect(got.json()).not.toHaveProperty('AUTH_LDAP_BIND_PASSWORD');
    expect(got.body).not.toContain(LDAP_READER_PASSWORD);
    expect(got.json()).toMatchObject({ AUTH_LDAP: true, AUTH_LDAP_SEARCH_OU: LDAP_USERS_OU });
    expect((await admin.patch(SETTINGS, { AUTH_LDAP_BIND_PASSWORD: '' })).statusCode).toBe(200);
    expect(await t.deps.settings.secret('AUTH_LDAP_BIND_PASSWORD')).toBe(LDAP_READER_PASSWORD);
  });
});

describe('LDAP tools', () => {
  it('tests a configuration: bind and paged search, answering the count; a wrong password is named', async () => {
    const ok = await admin.post(`${TOOLS}testing/config/`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().msg).toBe(`Connected and searched: ${BULK + 3} users found.`);
    const bad = await admin.post(`${TOOLS}testing/config/`, { AUTH_LDAP_BIND_PASSWORD: 'wrong' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/^The LDAP service account could not sign in/);
    const invalid = await admin.post(`${TOOLS}testing/config/`, { AUTH_LDAP_SEARCH_FILTER: 'cn=' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toHaveProperty('AUTH_LDAP_SEARCH_FILTER');
  });

  it('tests a sign-in', async () => {
    const ok = await admin.post(`${TOOLS}testing/login/`, { username: 'alice', password: 'Alice-pass-1' });
    expect(ok.json()).toEqual({ msg: 'Authentication success: alice' });
    const bad = await admin.post(`${TOOLS}testing/login/`, { username: 'alice', password: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('The directory refused the password of alice.');
    const unknown = await admin.post(`${TOOLS}testing/login/`, { username: 'ghost', password: 'x' });
    expect(unknown.json().msg).toBe('The user ghost was not found in the directory.');
    const empty = await admin.post(`${TOOLS}testing/login/`, { username: 'alice' });
    expect(empty.json()).toEqual({ password: ['This field is required.'] });
  });

  it('lists the directory users from the cache past the 500-entry limit, with search, paging and existing marks', async () => {
    const res = await syncedUsers();
    expect(res.statusCode).toBe(200);
    const all = res.json() as { username: string; existing: boolean; groups: string[] }[];
    expect(all).toHaveLength(BULK + 3);
    expect(all.find((u) => u.username === 'admin')?.existing).toBe(true);
    expect(all.find((u) => u.username === 'alice')).toMatchObject({ id: 'alice', existing: false });
    const found = (await syncedUsers('?search=ALI')).json();
    expect(found).toEqual([expect.objectContaining({ username: 'alice', email: 'alice@example.org' })]);
    const page = (await syncedUsers('?limit=10&offset=20')).json() as { count: number; results: unknown[] };
    expect(page.count).toBe(BULK + 3);
    expect(page.results).toHaveLength(10);
  });

  it('refreshes the cache by a GET that needs the CSRF header; a running sync refuses another', async () => {
    const refresh = () =>
      admin.get(`${TOOLS}cache/refresh/`, { 'x-csrftoken': admin.jar.values.get(CSRF_COOKIE) ?? '' });
    expect((await admin.get(`${TOOLS}cache/refresh/`)).statusCode).toBe(401);
    await t.deps.cache.set('ldap:sync:lock', 1, 60);
    const res = await refresh();
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe('A synchronization is running, please wait.');
    await t.deps.cache.delete('ldap:sync:lock');
    expect((await refresh()).json()).toEqual({ msg: 'Synchronization started.' });
    expect((await syncedUsers()).statusCode).toBe(200);
  });

  it(`imports all ${BULK + 3} users into an org, reporting a blank email and a taken username without stopping`, async () => {
    const start = Date.now();
    const res = await admin.post(`${TOOLS}users/import/`, { username_list: ['*'], org_ids: [DEFAULT_ORG_ID] });
    const took = Date.now() - start;
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.imported).toBe(BULK + 1);
    expect(body.errors).toEqual([
      { username: 'nomail', error: 'blank_email', msg: 'nomail: the directory entry has no email address.' },
      { username: 'admin', error: 'username_taken', msg: 'admin: a user of another source has this username.' },
    ]);
    const { n } = await t.deps.database.db
      .selectFrom('users_user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', 'ldap')
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(BULK + 1);
    console.info(`LDAP import of ${BULK + 3} users: ${took} ms`);
    // Again: updates, nothing new.
    const again = (
      await admin.post(`${TOOLS}users/import/`, { username_list: ['alice'], org_ids: [DEFAULT_ORG_ID] })
    ).json();
    expect(again).toMatchObject({ imported: 1, created: 0, errors: [] });
    expect((await syncedUsers('?search=alice')).json()).toEqual([expect.objectContaining({ existing: true })]);
  }, 60_000);

  it('refuses an import without users or organisations', async () => {
    const res = await admin.post(`${TOOLS}users/import/`, { username_list: [], org_ids: ['nope'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('username_list');
    // The system-setting org and the global view hold no members: no organisation to import into.
    const system = await admin.post(`${TOOLS}users/import/`, {
      username_list: ['*'],
      org_ids: [SYSTEM_ORG_ID, ROOT_ORG_ID],
    });
    expect(system.statusCode).toBe(400);
    expect(system.json()).toHaveProperty('org_ids');
  });
});
