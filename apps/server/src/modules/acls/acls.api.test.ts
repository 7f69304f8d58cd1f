import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** Access-control rules (issue 16) through the API, on a real database. */
let t: TestApp;
let admin: SessionClient;
let orgB: string;
const A = '/api/v1/acls';
const PASSWORD = 'Acl-pass-1';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers
const users: Record<string, Row> = {};
const EN = { 'accept-language': 'en' };

async function makeUser(username: string, org = DEFAULT_ORG_ID): Promise<Row> {
  const res = await admin.post(
    '/api/v1/users/users/',
    { name: username, username, email: `${username}@corp.example`, password_strategy: 'custom', password: PASSWORD },
    { 'x-jms-org': org },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const post = (url: string, body: unknown, org = DEFAULT_ORG_ID) => admin.post(url, body, { 'x-jms-org': org, ...EN });

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'ACL org B' })).json().id;
  for (const u of ['alice', 'bob', 'carol']) users[u] = await makeUser(u);
  const ops = (await admin.post('/api/v1/users/groups/', { name: 'Ops', users: [users.carol!.id] })).json();
  expect(ops.id).toBeDefined();
});
afterAll(async () => t.close());

describe('login ACLs', () => {
  it('creates a rule with the contract defaults and lists rules in the order they apply', async () => {
    const res = await post(`${A}/login-acls/`, { name: 'default rule', users: { type: 'all' }, is_active: false });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      priority: 50,
      action: { value: 'reject', label: 'Reject' },
      users: { type: 'all' },
      reviewers: [],
      is_active: false,
      rules: { ip_group: ['*'] },
    });
    expect(r.rules.time_period).toHaveLength(7);
    expect(r.rules.time_period[0]).toEqual({ id: 0, value: '00:00~00:00' });
    expect(r.org_id).toBeUndefined();
    for (const [name, priority] of [
      ['p90', 90],
      ['p10', 10],
      ['p10 b', 10],
    ] as const)
      expect(
        (await post(`${A}/login-acls/`, { name, priority, users: { type: 'all' }, is_active: false })).statusCode,
      ).toBe(201);
    const list: Row[] = (await admin.get(`${A}/login-acls/`)).json();
    expect(list.map((x) => x.name)).toEqual(['p10', 'p10 b', 'default rule', 'p90']);
    // Outside organisations: the same rules whatever org the request names.
    expect((await admin.get(`${A}/login-acls/`, { 'x-jms-org': orgB })).json()).toHaveLength(4);
  });

  it('refuses bad input with messages that say what is wrong, in the user language', async () => {
    const bad = async (body: Row, field: string, lang = 'en') => {
      const res = await admin.post(
        `${A}/login-acls/`,
        { name: 'bad', users: { type: 'all' }, ...body },
        { 'accept-language': lang },
      );
      expect(res.statusCode, res.body).toBe(400);
      return res.json()[field][0] as string;
    };
    expect(await bad({ priority: 0 }, 'priority')).toMatch(/greater than or equal to 1/);
    expect(await bad({ priority: 101 }, 'priority')).toMatch(/less than or equal to 100/);
    expect(await bad({ action: 'warning' }, 'action')).toMatch(/"warning" is not a valid choice/);
    expect(await bad({ rules: { ip_group: ['10.0.0.300'] } }, 'rules')).toBe(
      'IP address invalid: "10.0.0.300". Use *, an address (10.0.0.1, fd00::1), a CIDR block (10.0.0.0/8) or a range (10.0.0.1-10.0.0.9).',
    );
    expect(await bad({ rules: { ip_group: ['10.0.0.300'] } }, 'rules', 'zh-CN')).toContain('IP 地址无效：“10.0.0.300”');
    expect(await bad({ rules: { ip_group: ['10.0.0.9-10.0.0.1'] } }, 'rules')).toContain('ends before it starts');
    expect(await bad({ rules: { ip_group: [] } }, 'rules')).toContain('use * for any address');
    expect(await bad({ rules: { ip_group: ['*'], time_period: [{ id: 1, value: '9:00~10:00' }] } }, 'rules')).toBe(
      'Invalid time period "9:00~10:00": write HH:MM~HH:MM, several joined by 、.',
    );
    expect(await bad({ rules: { time_period: [{ id: 1, value: '22:00~06:00' }] } }, 'rules', 'ja')).toContain(
      '22:00~06:00',
    );
    expect(await bad({ rules: { time_period: [{ id: 9, value: '' }] } }, 'rules')).toContain('from 0 (Sunday) to 6');
    expect(await bad({ users: { type: 'ids', ids: [] } }, 'users')).toBe('Choose at least one object.');
    expect(
      await bad({ users: { type: 'attrs', attrs: [{ name: 'password', match: 'exact', value: 'x' }] } }, 'users'),
    ).toBe('Unknown attribute "password".');
    expect(await bad({ users: 'everyone' }, 'users')).toContain('{"type": "all"}');
    expect(await bad({ action: 'review' }, 'reviewers')).toBe(
      'Choose at least one recipient when the action is review.',
    );
    expect(await bad({ users: undefined }, 'users')).toBe('This field is required.');
  });

  it('checks review recipients on a partial update too', async () => {
    const r = (await post(`${A}/login-acls/`, { name: 'to review', users: { type: 'all' }, is_active: false })).json();
    const res = await admin.request({
      method: 'PATCH',
      url: `${A}/login-acls/${r.id}/`,
      payload: { action: 'review' },
      headers: EN,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().reviewers).toBeDefined();
    const ok = await admin.request({
      method: 'PATCH',
      url: `${A}/login-acls/${r.id}/`,
      payload: { action: 'review', reviewers: [users.bob!.id] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().reviewers).toEqual([{ id: users.bob!.id, name: 'bob' }]);
    const again = await admin.request({ method: 'PATCH', url: `${A}/login-acls/${r.id}/`, payload: { comment: 'x' } });
    expect(again.statusCode).toBe(200);
    await admin.request({ method: 'DELETE', url: `${A}/login-acls/${r.id}/` });
  });

  it('lists the users a rule selects, and filters rules by the user they apply to', async () => {
    const r = (
      await post(`${A}/login-acls/`, {
        name: 'ops group',
        is_active: false,
        users: { type: 'attrs', attrs: [{ name: 'groups', match: 'm2m', value: ['Ops'] }] },
      })
    ).json();
    const matched = (await admin.get(`${A}/login-acls/${r.id}/users/`)).json();
    expect(matched.map((u: Row) => u.username)).toEqual(['carol']);
    const paged = (await admin.get(`${A}/login-acls/${r.id}/users/?limit=1`)).json();
    expect(paged).toMatchObject({ count: 1, results: [{ username: 'carol' }] });
    const forCarol = (await admin.get(`${A}/login-acls/?users=carol`)).json().map((x: Row) => x.name);
    expect(forCarol).toContain('ops group');
    const forAlice = (await admin.get(`${A}/login-acls/?users=${users.alice!.id}`)).json().map((x: Row) => x.name);
    expect(forAlice).not.toContain('ops group');
    expect(forAlice).toContain('default rule');
  });

  it('is for system administrators only', async () => {
    await makeUser('orgadmin1');
    const bindings = (await admin.get('/api/v1/rbac/org-role-bindings/?user__username=orgadmin1')).json();
    expect(bindings.length).toBe(1);
    const role = (await admin.get('/api/v1/rbac/org-roles/?name=OrgAdmin')).json()[0];
    await admin.request({
      method: 'PATCH',
      url: `/api/v1/rbac/org-role-bindings/${bindings[0].id}/`,
      payload: { role: role.id },
    });
    const c = new SessionClient(t.app);
    expect((await c.login('orgadmin1', PASSWORD)).statusCode).toBe(200);
    expect((await c.get(`${A}/login-acls/`)).statusCode).toBe(403);
    expect((await c.get(`${A}/connect-method-acls/`)).statusCode).toBe(403);
    expect((await c.get(`${A}/command-groups/`)).statusCode).toBe(200);
  });
});

describe('login ACLs at sign-in', () => {
  const signIn = async (username: string) => {
    const c = new SessionClient(t.app);
    return c.login(username, PASSWORD, {});
  };

  it('refuses a user from a rejected address with the message and a login-log reason; others sign in', async () => {
    const rule = (
      await post(`${A}/login-acls/`, {
        name: 'no localhost for alice',
        priority: 20,
        users: { type: 'ids', ids: [users.alice!.id] },
        rules: { ip_group: ['127.0.0.1', '::1'] },
      })
    ).json();
    const res = await new SessionClient(t.app).login('alice', PASSWORD);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'acl_not_allow',
      msg: 'Sign-in refused by an access-control rule: this address or this time is not allowed.',
    });
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authentication/auth/',
      payload: { username: 'alice', password: PASSWORD },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(token.statusCode).toBe(400);
    expect(token.json()).toEqual({
      error: 'acl_not_allow',
      msg: '登录被访问控制规则拒绝：不允许从此地址或在此时间登录。',
    });
    const logs = (
      await admin.get('/api/v1/audits/login-logs/?username=alice', { 'x-jms-org': ROOT_ORG_ID, ...EN })
    ).json();
    expect(logs[0]).toMatchObject({ status: { value: false }, reason: 'acl_not_allow' });
    expect(logs[0].reason_display).toBe('Rejected by a login ACL');
    expect((await signIn('bob')).statusCode).toBe(200);
    // Outside the address group the rule does not apply.
    await admin.request({
      method: 'PATCH',
      url: `${A}/login-acls/${rule.id}/`,
      payload: { rules: { ip_group: ['10.0.0.0/8'] } },
    });
    expect((await signIn('alice')).statusCode).toBe(200);
    await admin.request({ method: 'DELETE', url: `${A}/login-acls/${rule.id}/` });
  });

  it('lets an earlier accept rule short-circuit a later reject; review makes the sign-in wait', async () => {
    const reject = (
      await post(`${A}/login-acls/`, { name: 'reject bob', priority: 30, users: { type: 'ids', ids: [users.bob!.id] } })
    ).json();
    expect((await signIn('bob')).json().error).toBe('acl_not_allow');
    const accept = (
      await post(`${A}/login-acls/`, {
        name: 'accept bob',
        priority: 29,
        action: 'accept',
        users: { type: 'ids', ids: [users.bob!.id] },
      })
    ).json();
    expect((await signIn('bob')).statusCode).toBe(200);
    await admin.request({
      method: 'PATCH',
      url: `${A}/login-acls/${accept.id}/`,
      payload: { action: 'review', reviewers: [users.carol!.id] },
    });
    // Review makes the sign-in wait on a login-confirm ticket (modules/tickets/loginConfirm.api.test.ts).
    const res = await signIn('bob');
    expect(res.statusCode).toBe(200);
    expect(res.json().error).toBe('login_confirm_wait');
    // An inactive rule never applies.
    await admin.request({ method: 'PATCH', url: `${A}/login-acls/${accept.id}/`, payload: { is_active: false } });
    await admin.request({ method: 'PATCH', url: `${A}/login-acls/${reject.id}/`, payload: { is_active: false } });
    expect((await signIn('bob')).statusCode).toBe(200);
  });

  it('reads time periods in the configured time zone', async () => {
    const now = new Date();
    const zone = 'Asia/Tokyo';
    const weekday = Number(
      ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(
        new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(now),
      ),
    );
    await t.deps.settings.set('TIME_ZONE', zone);
    const today = [{ id: weekday, value: '00:00~00:00' }];
    const rule = (
      await post(`${A}/login-acls/`, {
        name: 'carol today in Tokyo',
        priority: 5,
        users: { type: 'ids', ids: [users.carol!.id] },
        rules: { ip_group: ['*'], time_period: today },
      })
    ).json();
    expect((await signIn('carol')).json().error).toBe('acl_not_allow');
    await admin.request({
      method: 'PATCH',
      url: `${A}/login-acls/${rule.id}/`,
      payload: { rules: { ip_group: ['*'], time_period: [{ id: (weekday + 1) % 7, value: '00:00~00:00' }] } },
    });
    expect((await signIn('carol')).statusCode).toBe(200);
    await t.deps.settings.set('TIME_ZONE', '');
    await admin.request({ method: 'DELETE', url: `${A}/login-acls/${rule.id}/` });
  });
});

describe('command groups and command filter ACLs', () => {
  let group: Row;

  it('creates a group with the gateway pattern, and refuses an incorrect regex', async () => {
    const res = await post(`${A}/command-groups/`, { name: 'danger', content: 'rm -rf\nreboot' });
    expect(res.statusCode, res.body).toBe(201);
    group = res.json();
    expect(group).toMatchObject({
      type: { value: 'command' },
      ignore_case: true,
      pattern: '\\brm\\s+\\-rf\\b|\\breboot\\b',
    });
    const bad = await post(`${A}/command-groups/`, { name: 'bad', type: 'regex', content: 'ok\n(unclosed' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().content[0]).toMatch(
      /^The generated regular expression is incorrect: .* \(line "\(unclosed"\)\.$/,
    );
    expect((await post(`${A}/command-groups/`, { name: 'empty', content: '  ' })).json().content[0]).toBe(
      'This field may not be blank.',
    );
    expect((await post(`${A}/command-groups/`, { name: 'x', content: 'ls' }, ROOT_ORG_ID)).statusCode).toBe(400);
    const slow = await post(`${A}/command-groups/`, { name: 'slow', type: 'regex', content: '(a+)+$' });
    expect(slow.json().content[0]).toContain('repeats a group that itself repeats');
    const slowTest = await admin.post(
      `${A}/command-groups/test/`,
      { type: 'regex', content: '(a+)+$', command: 'aaaa!' },
      EN,
    );
    expect(slowTest.statusCode).toBe(400);
    const long = await admin.post(`${A}/command-groups/test/`, { content: 'rm', command: 'x'.repeat(4097) }, EN);
    expect(long.json()).toEqual({ command: ['A command to test has at most 4096 characters.'] });
  });

  it('tests a command against a group as edited', async () => {
    const test = (body: Row) => admin.post(`${A}/command-groups/test/`, body, EN);
    expect((await test({ content: 'rm', command: 'rm -f x' })).json()).toEqual({
      matched: true,
      text: 'rm',
      pattern: '\\brm\\b',
    });
    expect((await test({ content: 'rm', command: 'rmdir x' })).json().matched).toBe(false);
    expect((await test({ content: 'REBOOT', ignore_case: false, command: 'reboot' })).json().matched).toBe(false);
    expect((await test({ type: 'regex', content: '^shut', command: 'Shutdown -h' })).json()).toMatchObject({
      matched: true,
      text: 'Shut',
    });
    const bad = await test({ type: 'regex', content: '(', command: '' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['command', 'content']);
  });

  it('keeps groups and filters inside their organisation', async () => {
    const other = (await post(`${A}/command-groups/`, { name: 'b group', content: 'ls' }, orgB)).json();
    expect((await admin.get(`${A}/command-groups/${other.id}/`, { 'x-jms-org': DEFAULT_ORG_ID })).statusCode).toBe(404);
    const res = await post(`${A}/command-filter-acls/`, {
      name: 'uses foreign group',
      users: { type: 'all' },
      assets: { type: 'all' },
      command_groups: [other.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().command_groups[0]).toContain(other.id);
    const ok = await post(`${A}/command-filter-acls/`, {
      name: 'warn danger',
      action: 'warning',
      users: { type: 'all' },
      assets: { type: 'all' },
      accounts: ['root', '@ALL'],
      command_groups: [group.id],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      action: { value: 'warning' },
      accounts: ['root', '@ALL'],
      command_groups: [{ id: group.id, name: 'danger' }],
      org_id: DEFAULT_ORG_ID,
    });
    expect((await admin.get(`${A}/command-filter-acls/`, { 'x-jms-org': orgB })).json()).toEqual([]);
    expect((await admin.get(`${A}/command-filter-acls/${ok.json().id}/`, { 'x-jms-org': orgB })).statusCode).toBe(404);
    const accounts = await post(`${A}/command-filter-acls/`, {
      name: 'no accounts',
      users: { type: 'all' },
      assets: { type: 'all' },
      accounts: [],
    });
    expect(accounts.json().accounts[0]).toBe('Give at least one account; use @ALL for every account.');
  });
});

describe('login-asset ACLs', () => {
  it('selects assets by attributes and lists what a rule matches', async () => {
    const host = (n: string, address: string) =>
      admin.post('/api/v1/assets/hosts/', {
        name: n,
        address,
        platform: 'Linux',
        protocols: [{ name: 'ssh', port: 22 }],
      });
    expect((await host('web-1', '10.1.0.1')).statusCode).toBe(201);
    expect((await host('db-1', '10.2.0.1')).statusCode).toBe(201);
    const res = await post(`${A}/login-asset-acls/`, {
      name: 'web hosts',
      users: { type: 'all' },
      assets: { type: 'attrs', attrs: [{ name: 'address', match: 'ip_in', value: ['10.1.0.0/16'] }] },
      accounts: ['root'],
      rules: { ip_group: ['192.168.0.0/16'], time_period: [{ id: 1, value: '09:00~18:00' }] },
      action: 'warning',
    });
    expect(res.statusCode, res.body).toBe(201);
    const rule = res.json();
    expect(rule.rules).toEqual({ ip_group: ['192.168.0.0/16'], time_period: [{ id: 1, value: '09:00~18:00' }] });
    const assets = (await admin.get(`${A}/login-asset-acls/${rule.id}/assets/`)).json();
    expect(assets.map((a: Row) => a.name)).toEqual(['web-1']);
    expect(assets[0].platform.name).toBe('Linux');
    expect((await admin.get(`${A}/login-asset-acls/?assets=db-1`)).json()).toEqual([]);
    expect((await admin.get(`${A}/login-asset-acls/?assets=web-1`)).json()).toHaveLength(1);
    const users = (await admin.get(`${A}/login-asset-acls/${rule.id}/users/`)).json().map((u: Row) => u.username);
    expect(users).toEqual(expect.arrayContaining(['alice', 'bob', 'carol']));
    expect((await admin.get(`${A}/login-asset-acls/${rule.id}/assets/`, { 'x-jms-org': orgB })).statusCode).toBe(404);
  });

  it('needs an organisation and recipients from its members', async () => {
    const root = await post(
      `${A}/login-asset-acls/`,
      { name: 'r', users: { type: 'all' }, assets: { type: 'all' } },
      ROOT_ORG_ID,
    );
    expect(root.statusCode).toBe(400);
    const stranger = await makeUser('stranger', orgB);
    const res = await post(`${A}/login-asset-acls/`, {
      name: 'review',
      users: { type: 'all' },
      assets: { type: 'all' },
      action: 'review',
      reviewers: [stranger.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().reviewers[0]).toContain(stranger.id);
  });
});

describe('connect-method ACLs', () => {
  it('offers only reject, knows the connect methods, and filters by method', async () => {
    const res = await post(`${A}/connect-method-acls/`, {
      name: 'no rdp client',
      users: { type: 'all' },
      connect_methods: ['mstsc', { value: 'web_gui' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      action: { value: 'reject' },
      connect_methods: ['mstsc', 'web_gui'],
      reviewers: [],
    });
    const bad = await post(`${A}/connect-method-acls/`, {
      name: 'x',
      users: { type: 'all' },
      connect_methods: ['telepathy'],
      action: 'accept',
    });
    expect(bad.json()).toMatchObject({
      connect_methods: [expect.stringMatching(/^Unknown connect method "telepathy": use one of web_cli, .*\bvnc\b/)],
      action: ['"accept" is not a valid choice.'],
    });
    expect((await admin.get(`${A}/connect-method-acls/?methods=mstsc`)).json()).toHaveLength(1);
    // Methods the original stores, before Gatehouse serves them: graphical protocols and database clients.
    const graphical = await post(`${A}/connect-method-acls/`, {
      name: 'no graphical or database clients',
      users: { type: 'all' },
      connect_methods: ['vnc', 'rdp', 'db_client', 'dbeaver'],
    });
    expect(graphical.statusCode, graphical.body).toBe(201);
    expect(graphical.json().connect_methods).toEqual(['vnc', 'rdp', 'db_client', 'dbeaver']);
    expect((await admin.get(`${A}/connect-method-acls/?methods=web_cli`)).json()).toHaveLength(0);
    const options = (await admin.request({ method: 'OPTIONS', url: `${A}/connect-method-acls/` })).json();
    expect(options.actions.POST.action.choices.map((c: Row) => c.value)).toEqual(['reject']);
  });
});
