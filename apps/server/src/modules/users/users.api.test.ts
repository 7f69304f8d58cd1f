import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** The resource framework through the users and user-groups resources (issue 3), on a real database. */
let t: TestApp;
let admin: SessionClient;
const U = '/api/v1/users/users/';
const G = '/api/v1/users/groups/';

const user = (n: string, extra: Record<string, unknown> = {}) => ({
  name: `User ${n}`,
  username: `user_${n}`,
  email: `${n}@example.com`,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  const res = await admin.post(
    U,
    ['a', 'b', 'c', 'd', 'e'].map((n, i) => user(n, { comment: i % 2 ? 'odd' : 'even', is_active: n !== 'e' })),
  );
  expect(res.statusCode).toBe(201);
});
afterAll(async () => t.close());

const list = async (query: string) => (await admin.get(`${U}?${query}`)).json();

describe('list parameters', () => {
  it('pages with limit/offset (capped at 100) and returns a plain array without limit', async () => {
    const page = await list('limit=2&offset=1&order=username');
    expect(page.count).toBe(6);
    expect(page.results.map((u: { username: string }) => u.username)).toEqual(['user_a', 'user_b']);
    const next = new URL(page.next).searchParams;
    expect([next.get('limit'), next.get('offset'), next.get('order')]).toEqual(['2', '3', 'username']);
    expect(new URL(page.previous).searchParams.get('offset')).toBeNull();
    expect(Array.isArray(await list('order=username'))).toBe(true);
    expect((await list('limit=500')).results.length).toBe(6);
  });

  it('searches across name, username and email; every term must match', async () => {
    expect((await list('search=USER_C')).map((u: { username: string }) => u.username)).toEqual(['user_c']);
    expect((await list('search=example.com user_d')).map((u: { username: string }) => u.username)).toEqual(['user_d']);
    expect(await list('search=100%')).toEqual([]);
  });

  it('orders by declared fields, descending with -, ignoring unknown ones', async () => {
    const names = (await list('order=-username,bogus')).map((u: { username: string }) => u.username);
    expect(names.slice(0, 2)).toEqual(['user_e', 'user_d']);
  });

  it('filters by declared fields, with typed values checked', async () => {
    expect((await list('is_active=false')).map((u: { username: string }) => u.username)).toEqual(['user_e']);
    expect((await list('username=user_b')).length).toBe(1);
    const bad = await admin.get(`${U}?is_active=maybe`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ is_active: ['Must be a valid boolean.'] });
    expect(
      (await list(`system_roles=${BUILTIN_ROLE_IDS.SystemAdmin}`)).map((u: { username: string }) => u.username),
    ).toEqual(['admin']);
  });

  it('selects by ids, excludes by id!, and by a cached spm (unknown spm → empty)', async () => {
    const all = await list('order=username');
    const [a, b] = [all[1].id, all[2].id];
    expect((await list(`ids=${a},${b}`)).length).toBe(2);
    expect((await list(`id!=${a}`)).length).toBe(5);
    const { spm } = (await admin.post('/api/v1/common/resources/cache/', { resources: [a] })).json();
    expect((await list(`spm=${spm}`)).map((u: { id: string }) => u.id)).toEqual([a]);
    expect(await list('spm=00000000-0000-0000-0000-00000000dead')).toEqual([]);
  });

  it('filters by date range on date_joined', async () => {
    expect((await list('date_from=2000-01-01T00:00:00Z')).length).toBe(6);
    expect(await list('date_to=2000-01-01T00:00:00Z')).toEqual([]);
    expect((await admin.get(`${U}?date_from=yesterday`)).statusCode).toBe(400);
  });
});

describe('output shapes and metadata', () => {
  it('gives choices as {value,label} and relations as {id,name}, never the password', async () => {
    const [u] = await list('username=user_a');
    expect(u.source).toEqual({ value: 'local', label: 'Local' });
    expect(u.mfa_level).toEqual({ value: 0, label: 'Disable' });
    expect(u.system_roles).toEqual([{ id: BUILTIN_ROLE_IDS.User, name: 'User', display_name: 'User' }]);
    expect(u.org_roles).toEqual([{ id: BUILTIN_ROLE_IDS.OrgUser, name: 'OrgUser', display_name: 'Organization user' }]);
    expect(u.groups).toEqual([]);
    expect(u.is_valid).toBe(true);
    expect(u).not.toHaveProperty('password');
    expect(u.date_joined).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
  });

  it('answers OPTIONS with the contract shape: types, labels, choices, filter and order flags', async () => {
    const res = await admin.request({ method: 'OPTIONS', url: `${U}?draw=1&display=1` });
    expect(res.statusCode).toBe(200);
    const { actions } = res.json();
    expect(actions.GET.id).toMatchObject({ type: 'string', read_only: true, label: 'ID' });
    expect(actions.GET.username).toMatchObject({
      type: 'string',
      required: true,
      max_length: 128,
      label: 'Username',
      filter: true,
      order: true,
    });
    expect(actions.GET.source.type).toBe('labeled_choice');
    expect(actions.GET.source.choices).toContainEqual({ value: 'ldap', label: 'LDAP/AD' });
    expect(actions.GET.groups.type).toBe('m2m_related_field');
    expect(actions.POST.password).toMatchObject({ write_only: true });
    expect(actions.POST.is_active.default).toBe(true);
    const zh = await admin.request({
      method: 'OPTIONS',
      url: U,
      headers: { cookie: `${admin.jar.header()}; django_language=zh-hans` },
    });
    expect(zh.json().actions.GET.username.label).toBe('用户名');
  });

  it('supports fields_size=mini for select lists', async () => {
    const [u] = await list('fields_size=mini&username=user_a');
    expect(Object.keys(u).sort()).toEqual(['id', 'name', 'username']);
  });
});

describe('errors', () => {
  it('answers 400 with a field dictionary, in the request language', async () => {
    const res = await admin.post(U, { username: 'bad name!', email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      name: ['This field is required.'],
      username: ['Spaces and control characters are not allowed'],
      email: ['Enter a valid email address.'],
    });
    const zh = await admin.post(U, {}, { cookie: `${admin.jar.header()}; django_language=zh-hans` });
    expect(zh.json().name).toEqual(['该字段是必填项。']);
  });

  it('refuses duplicates, unknown relations and bad choices', async () => {
    const dup = await admin.post(U, user('a'));
    expect(dup.json().username).toEqual(['user with this username already exists.']);
    const rel = await admin.post(U, user('x', { groups: ['00000000-0000-0000-0000-0000000000ff'], source: 'nowhere' }));
    expect(rel.json().groups).toEqual(['Invalid pk "00000000-0000-0000-0000-0000000000ff" - object does not exist.']);
    expect(rel.json().source).toEqual(['"nowhere" is not a valid choice.']);
  });

  it('answers 404 with detail for an unknown id, and 403 without the permission', async () => {
    const res = await admin.get(`${U}00000000-0000-0000-0000-0000000000ff/`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'User object does not exist.', code: 'object_does_not_exist' });
    await admin.post(U, user('plain', { password_strategy: 'custom', password: 'Plain-pass1' }));
    const { SessionClient } = await import('../../../test-support/testApp.ts');
    const plain = new SessionClient(t.app);
    expect((await plain.login('user_plain', 'Plain-pass1')).statusCode).toBe(200);
    const denied = await plain.get(U);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({
      detail: 'You do not have permission to perform this action.',
      code: 'permission_denied',
    });
    expect((await plain.request({ method: 'OPTIONS', url: U })).statusCode).toBe(200);
  });

  it('shows a user locked by failed sign-ins as login_blocked in the list and detail, until unblocked', async () => {
    await admin.post(U, user('locked', { password_strategy: 'custom', password: 'Locked-pass1' }));
    const { SessionClient } = await import('../../../test-support/testApp.ts');
    const c = new SessionClient(t.app);
    for (let i = 1; i <= 7; i++) await c.login('user_locked', `wrong-${i}`);
    const [locked] = await list('username=user_locked');
    const [a] = await list('username=user_a');
    expect([a.login_blocked, locked.login_blocked]).toEqual([false, true]);
    expect((await admin.request({ method: 'PATCH', url: `${U}${locked.id}/unblock/` })).statusCode).toBeLessThan(300);
    expect((await admin.get(`${U}${locked.id}/`)).json().login_blocked).toBe(false);
  });

  it('lists a bulk create error per item, with {} for valid items, and saves nothing', async () => {
    const res = await admin.post(U, [user('ok1'), { ...user('bad'), email: 'x' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{}, { email: ['Enter a valid email address.'] }]);
    expect(await list('username=user_ok1')).toEqual([]);
  });
});

describe('writes', () => {
  it('updates with PUT and PATCH, and records the diff in the activity', async () => {
    const [u] = await list('username=user_b');
    const put = await admin.request({
      method: 'PUT',
      url: `${U}${u.id}/`,
      payload: { name: 'Bee', username: 'user_b', email: 'b@example.com' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().name).toBe('Bee');
    const putMissing = await admin.request({ method: 'PUT', url: `${U}${u.id}/`, payload: { name: 'Bee' } });
    expect(putMissing.json()).toEqual({ username: ['This field is required.'], email: ['This field is required.'] });
    const patch = await admin.request({ method: 'PATCH', url: `${U}${u.id}/`, payload: { comment: 'patched' } });
    expect(patch.json()).toMatchObject({ name: 'Bee', comment: 'patched' });
    const acts = (await admin.get(`/api/v1/audits/activities/?resource_id=${u.id}`)).json();
    expect(acts[0]).toMatchObject({ r_type: 'O', content: 'Administrator(admin) updated user Bee(user_b)' });
    const detail = (await admin.get(acts[1].detail_url)).json();
    expect(detail.diff).toContainEqual({ field: 'Name', before: 'User b', after: 'Bee' });
  });

  it('bulk-updates with PATCH on the list; a missing id is reported per item', async () => {
    const [c, d] = [...(await list('username=user_c')), ...(await list('username=user_d'))];
    const res = await admin.request({
      method: 'PATCH',
      url: U,
      payload: [
        { id: c.id, comment: 'bulk' },
        { id: d.id, comment: 'bulk' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((x: { comment: string }) => x.comment)).toEqual(['bulk', 'bulk']);
    const bad = await admin.request({
      method: 'PATCH',
      url: U,
      payload: [{ id: c.id, email: 'nope' }, { comment: 'no id' }],
    });
    expect(bad.json()).toEqual([{ email: ['Enter a valid email address.'] }, { id: ['id or pk not in data'] }]);
  });

  it('bulk-deletes only selected rows (spm), and never all users', async () => {
    const [c, d] = [...(await list('username=user_c')), ...(await list('username=user_d'))];
    const nothing = await admin.request({ method: 'DELETE', url: U });
    expect(nothing.statusCode).toBe(400);
    const { spm } = (await admin.post('/api/v1/common/resources/cache/', { resources: [c.id, d.id] })).json();
    expect((await admin.request({ method: 'DELETE', url: `${U}?spm=${spm}` })).statusCode).toBe(204);
    expect(await list('username=user_c')).toEqual([]);
    const everyone = (await list('')).map((u: { id: string }) => u.id);
    const all = (await admin.post('/api/v1/common/resources/cache/', { resources: everyone })).json().spm;
    const refused = await admin.request({ method: 'DELETE', url: `${U}?spm=${all}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('unable_to_delete_all_users');
  });

  it('will not let the admin deactivate or delete itself', async () => {
    const [me] = await list('username=admin');
    const res = await admin.request({ method: 'PATCH', url: `${U}${me.id}/`, payload: { is_active: false } });
    expect(res.statusCode).toBe(400);
    expect(res.json().is_active[0]).toContain('You cannot change your own');
    expect((await admin.request({ method: 'DELETE', url: `${U}${me.id}/` })).statusCode).toBe(400);
  });
});

describe('user groups (org-scoped)', () => {
  it('creates a group with members, shows org fields, and counts users', async () => {
    const [a] = await list('username=user_a');
    const res = await admin.post(G, { name: 'ops', users: [{ pk: a.id }], comment: 'operators' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'ops',
      users: [{ id: a.id, name: 'User a' }],
      users_amount: 1,
      org_id: DEFAULT_ORG_ID,
      org_name: 'DEFAULT',
    });
    expect((await list('groups=ops')).map((u: { username: string }) => u.username)).toEqual(['user_a']);
    const gid = res.json().id;
    expect((await list(`group_id=${gid}`)).map((u: { username: string }) => u.username)).toEqual(['user_a']);
    expect(
      (await list(`exclude_group_id=${gid}&order=username`)).map((u: { username: string }) => u.username),
    ).not.toContain('user_a');
    expect((await admin.post(G, { name: 'ops' })).json().name[0]).toMatch(/already exists/);
  });

  it('creates a user from the global organisation, but refuses org roles there with a clear message', async () => {
    const body = { ...user('g'), system_roles: [BUILTIN_ROLE_IDS.User] };
    const refused = await admin.post(
      U,
      { ...body, org_roles: [BUILTIN_ROLE_IDS.OrgUser] },
      { 'x-jms-org': ROOT_ORG_ID },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ org_roles: ['Org roles are given inside an organisation: switch to one first'] });
    expect(await list('username=user_g')).toEqual([]);
    const made = await admin.post(U, body, { 'x-jms-org': ROOT_ORG_ID });
    expect(made.statusCode).toBe(201);
    expect(made.json().org_roles).toEqual([]);
    expect(
      (await admin.request({ method: 'DELETE', url: `${U}${made.json().id}/`, headers: { 'x-jms-org': ROOT_ORG_ID } }))
        .statusCode,
    ).toBe(204);
  });

  it('refuses creation in the global organisation', async () => {
    const res = await admin.post(G, { name: 'nowhere' }, { 'x-jms-org': ROOT_ORG_ID });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ['Please save in a org'] });
  });

  it('adds and removes members through users-groups-relations', async () => {
    const [g] = (await admin.get(`${G}?name=ops`)).json();
    const [b] = await list('username=user_b');
    const add = await admin.post('/api/v1/users/users-groups-relations/', [{ user: b.id, usergroup: g.id }]);
    expect(add.statusCode).toBe(201);
    expect((await admin.get(`${G}${g.id}/`)).json().users_amount).toBe(2);
    const del = await admin.request({
      method: 'DELETE',
      url: `/api/v1/users/users-groups-relations/?user=${b.id}&usergroup=${g.id}`,
    });
    expect(del.statusCode).toBe(204);
    expect((await admin.get(`${G}${g.id}/`)).json().users_amount).toBe(1);
  });
});
