import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID, ROOT_ORG_ID, SYSTEM_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';

/** The endpoints the console's startup sequence calls. */
let t: TestApp;
let admin: SessionClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('without credentials', () => {
  it.each([
    '/api/v1/users/profile/',
    '/api/v1/settings/public/',
    '/api/v1/orgs/orgs/current/',
    '/api/v1/assets/categories/',
  ])('%s answers 401 in the contract format', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.json()).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
  });

  it('public/open and health are reachable', async () => {
    const open = await t.app.inject({ method: 'GET', url: '/api/v1/settings/public/open/' });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toMatchObject({
      XPACK_ENABLED: true,
      INTERFACE: { login_title: 'Gatehouse', theme_info: { colors: { '--color-primary': '#1ab394' } } },
    });
    const health = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(health.json()).toMatchObject({ status: true, db_status: true, redis_status: true });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing/here/', headers: { authorization: 'x' } });
    expect([401, 404]).toContain(res.statusCode);
  });
});

describe('profile', () => {
  it('carries perms, roles and the orgs of each view', async () => {
    const res = await admin.get('/api/v1/users/profile/');
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      username: 'admin',
      is_superuser: true,
      is_first_login: true,
      source: { value: 'local', label: 'Local' },
    });
    expect(p.system_roles).toEqual([
      { id: BUILTIN_ROLE_IDS.SystemAdmin, name: 'SystemAdmin', display_name: 'System administrator' },
    ]);
    expect(p.perms).toContain('rbac.view_console');
    expect(p.perms).toContain('users.view_user');
    expect(p.console_orgs.map((o: { id: string }) => o.id)).toEqual([ROOT_ORG_ID, DEFAULT_ORG_ID]);
    expect(p.console_orgs[1]).toEqual({ id: DEFAULT_ORG_ID, name: 'DEFAULT', is_default: true, is_root: false });
    expect(p.workbench_orgs.map((o: { name: string }) => o.name)).toEqual(['All organizations', 'DEFAULT']);
    expect(p.console_orgs.some((o: { id: string }) => o.id === SYSTEM_ORG_ID)).toBe(false);
    expect(p.date_password_last_updated).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} \+0000$/);
    expect(p).not.toHaveProperty('password');
  });

  it('formats datetimes in the X-TZ time zone', async () => {
    const res = await admin.get('/api/v1/users/profile/', { 'x-tz': 'Asia/Shanghai' });
    expect(res.json().date_joined).toMatch(/ \+0800$/);
  });

  it('reports the number of database queries in a header when the console asks for it', async () => {
    const res = await admin.get('/api/v1/users/profile/', { 'x-jms-sql-debug': '1' });
    expect(Number(res.headers['x-jms-sql-count'])).toBeGreaterThan(0);
  });

  it('gives an ordinary user workbench access only, from the OrgUser role', async () => {
    const db = t.deps.database.db;
    const id = randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto('users_user')
      .values({
        id,
        username: 'alice',
        name: 'Alice',
        email: 'alice@example.com',
        password: (
          await db.selectFrom('users_user').select('password').where('username', '=', 'admin').executeTakeFirstOrThrow()
        ).password,
        is_active: true,
        is_first_login: false,
        need_update_password: false,
        is_service_account: false,
        source: 'local',
        mfa_level: 0,
        phone: '',
        wechat: '',
        comment: '',
        date_expired: '2090-01-01T00:00:00.000Z',
        date_joined: now,
        last_login: null,
        date_password_last_updated: now,
        created_by: 'test',
        updated_by: 'test',
        date_updated: now,
      })
      .execute();
    await db
      .insertInto('rbac_rolebinding')
      .values([
        {
          id: randomUUID(),
          scope: 'system',
          user_id: id,
          role_id: BUILTIN_ROLE_IDS.User,
          org_id: null,
          created_by: 'test',
          date_created: now,
        },
        {
          id: randomUUID(),
          scope: 'org',
          user_id: id,
          role_id: BUILTIN_ROLE_IDS.OrgUser,
          org_id: DEFAULT_ORG_ID,
          created_by: 'test',
          date_created: now,
        },
      ])
      .execute();
    const { SessionClient } = await import('../../test-support/testApp.ts');
    const alice = new SessionClient(t.app);
    expect((await alice.login('alice', 'Adm1n-secret!')).statusCode).toBe(200);
    const p = (await alice.get('/api/v1/users/profile/')).json();
    expect(p.is_superuser).toBe(false);
    expect(p.console_orgs).toEqual([]);
    expect(p.audit_orgs).toEqual([]);
    expect(p.workbench_orgs.map((o: { id: string }) => o.id)).toEqual([ROOT_ORG_ID, DEFAULT_ORG_ID]);
    expect(p.perms).toContain('rbac.view_workbench');
    expect(p.perms).not.toContain('rbac.view_console');
    expect(p.perms).not.toContain('users.view_user');
  });
});

describe('current organisation', () => {
  it('resolves ?oid, then the X-JMS-ORG header, then the cookie, then DEFAULT', async () => {
    const cur = async (url: string, headers: Record<string, string> = {}) => (await admin.get(url, headers)).json();
    expect(await cur('/api/v1/orgs/orgs/current/')).toEqual({
      id: DEFAULT_ORG_ID,
      name: 'DEFAULT',
      is_default: true,
      is_root: false,
      comment: '',
    });
    expect((await cur('/api/v1/orgs/orgs/current/', { 'x-jms-org': ROOT_ORG_ID })).is_root).toBe(true);
    expect((await cur(`/api/v1/orgs/orgs/current/?oid=${SYSTEM_ORG_ID}`, { 'x-jms-org': ROOT_ORG_ID })).id).toBe(
      SYSTEM_ORG_ID,
    );
    expect((await cur('/api/v1/orgs/orgs/current/?oid=root')).id).toBe(ROOT_ORG_ID);
    expect((await cur('/api/v1/orgs/orgs/current/?oid=SYSTEM')).id).toBe(SYSTEM_ORG_ID);
    expect(
      (await cur('/api/v1/orgs/orgs/current/', { cookie: `${admin.jar.header()}; X-JMS-ORG=${SYSTEM_ORG_ID}` })).id,
    ).toBe(SYSTEM_ORG_ID);
    expect((await cur('/api/v1/orgs/orgs/current/?oid=no-such-org')).id).toBe(DEFAULT_ORG_ID);
  });
});

describe('settings and categories', () => {
  it('public settings carry the licence flags, password rule and security values', async () => {
    const s = (await admin.get('/api/v1/settings/public/')).json();
    expect(s).toMatchObject({
      XPACK_ENABLED: true,
      XPACK_LICENSE_IS_VALID: true,
      SECURITY_MFA_VERIFY_TTL: 3600,
      SECURITY_PASSWORD_EXPIRATION_TIME: 9999,
      PASSWORD_RULE: { SECURITY_PASSWORD_MIN_LENGTH: 6 },
    });
    expect(s.INTERFACE.login_title).toBe('Gatehouse');
  });

  it('asset categories list the seven categories with their types (licensed ones included), translated', async () => {
    const cats = (await admin.get('/api/v1/assets/categories/')).json();
    expect(cats.map((c: { value: string }) => c.value)).toEqual([
      'host',
      'device',
      'database',
      'cloud',
      'web',
      'gpt',
      'custom',
    ]);
    const db = cats.find((c: { value: string }) => c.value === 'database');
    expect(db.types.map((x: { value: string }) => x.value)).toEqual([
      'mysql',
      'mariadb',
      'mongodb',
      'redis',
      'postgresql',
      'oracle',
      'sqlserver',
      'clickhouse',
    ]);
    const host = cats[0].types[0];
    expect(host).toMatchObject({ value: 'linux', label: 'Linux', category: 'host' });
    expect(host.constraints.protocols[0]).toMatchObject({ name: 'ssh', port: 22, default: true });
    const zh = (
      await admin.get('/api/v1/assets/categories/', { cookie: `${admin.jar.header()}; django_language=zh-hans` })
    ).json();
    expect(zh[0].label).toBe('主机');
  });
});
