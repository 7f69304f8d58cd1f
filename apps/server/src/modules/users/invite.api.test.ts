import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID, ROOT_ORG_ID, SYSTEM_ORG_ID, permissionId } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { INVITE_MAX_USERS } from './invite.ts';

/** Inviting existing users into an organisation with org roles (`users/invite/`), and who may do it. */
let t: TestApp;
let admin: SessionClient;
let org: string;
const U = '/api/v1/users/users/';
const INVITE = `${U}invite/`;
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const mkUser = async (name: string) =>
  (
    await admin.post(U, {
      name,
      username: name,
      email: `${name}@example.com`,
      password_strategy: 'custom',
      password: 'Invite-pass1',
    })
  ).json() as Row;
const inOrg = () => ({ 'x-jms-org': org });
const usernamesIn = async (orgId: string) =>
  ((await admin.get(`${U}?order=username`, { 'x-jms-org': orgId })).json() as Row[]).map((u) => u.username);

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  org = (await admin.post('/api/v1/orgs/orgs/', { name: 'Invitees' })).json().id;
});
afterAll(async () => t.close());

describe('users/invite/', () => {
  it('binds existing users in the org with the roles given, answers 201 echoing the body', async () => {
    const [a, b] = [await mkUser('inv_a'), await mkUser('inv_b')];
    expect(await usernamesIn(org)).toEqual([]);
    const body = { users: [a.id, b.id], org_roles: [BUILTIN_ROLE_IDS.OrgUser] };
    const res = await admin.post(INVITE, body, inOrg());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual(body);
    expect(await usernamesIn(org)).toEqual(['inv_a', 'inv_b']);
    const listed = (await admin.get(`${U}${a.id}/`, inOrg())).json();
    expect(listed.org_roles.map((r: Row) => r.id)).toEqual([BUILTIN_ROLE_IDS.OrgUser]);
    // Inviting again sets the roles (they replace the user's org roles here, as the original does).
    await admin.post(INVITE, { users: [a.id], org_roles: [BUILTIN_ROLE_IDS.OrgAuditor] }, inOrg());
    expect((await admin.get(`${U}${a.id}/`, inOrg())).json().org_roles.map((r: Row) => r.id)).toEqual([
      BUILTIN_ROLE_IDS.OrgAuditor,
    ]);
    // Their roles in other orgs are untouched (created in Default, they are its users).
    const inDefault = (await admin.get(`${U}${a.id}/`, { 'x-jms-org': DEFAULT_ORG_ID })).json();
    expect(inDefault.org_roles.map((r: Row) => r.id)).toEqual([BUILTIN_ROLE_IDS.OrgUser]);
  });

  it('answers 400 "Not a valid org" in the global org', async () => {
    const a = await mkUser('inv_root');
    const res = await admin.post(
      INVITE,
      { users: [a.id], org_roles: [BUILTIN_ROLE_IDS.OrgUser] },
      { 'x-jms-org': ROOT_ORG_ID },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Not a valid org' });
    const system = await admin.post(
      INVITE,
      { users: [a.id], org_roles: [BUILTIN_ROLE_IDS.OrgUser] },
      { 'x-jms-org': SYSTEM_ORG_ID },
    );
    expect(system.json()).toEqual({ error: 'Not a valid org' });
  });

  it('refuses missing, unknown or non-org ids, empty and oversized lists, naming the field', async () => {
    const a = await mkUser('inv_bad');
    const send = async (body: unknown) => {
      const r = await admin.post(INVITE, body, inOrg());
      expect(r.statusCode).toBe(400);
      return r.json();
    };
    expect(await send({})).toEqual({ users: ['This field is required.'], org_roles: ['This field is required.'] });
    expect(await send({ users: 'x', org_roles: [] })).toEqual({
      users: ['Expected a list of items but got type "str".'],
      org_roles: ['This list may not be empty.'],
    });
    const ghost = '00000000-0000-0000-0000-0000000000ff';
    expect(await send({ users: [ghost], org_roles: [BUILTIN_ROLE_IDS.OrgUser] })).toEqual({
      users: [`Invalid pk "${ghost}" - object does not exist.`],
    });
    // A system role is no org role.
    expect(await send({ users: [a.id], org_roles: [BUILTIN_ROLE_IDS.SystemAdmin] })).toEqual({
      org_roles: [`Invalid pk "${BUILTIN_ROLE_IDS.SystemAdmin}" - object does not exist.`],
    });
    const many = Array.from({ length: INVITE_MAX_USERS + 1 }, (_, i) => `id-${i}`);
    expect((await send({ users: many, org_roles: [BUILTIN_ROLE_IDS.OrgUser] })).users[0]).toMatch(/no more than/);
    const zh = await admin.post(
      INVITE,
      { users: [], org_roles: [BUILTIN_ROLE_IDS.OrgUser] },
      {
        ...inOrg(),
        cookie: `${admin.jar.header()}; django_language=zh-hans`,
      },
    );
    expect(zh.json().users).toEqual(['列表不能为空。']);
    expect(await usernamesIn(org)).not.toContain('inv_bad');
  });

  it('needs users.invite_user, and gives only roles the caller could hold himself', async () => {
    const [helper, target, admin2] = [
      await mkUser('inv_helper'),
      await mkUser('inv_target'),
      await mkUser('inv_admin'),
    ];
    const login = async () => {
      const c = new SessionClient(t.app);
      expect((await c.login('inv_helper', 'Invite-pass1')).statusCode).toBe(200);
      return c;
    };
    // A member without the permission is refused.
    await admin.post(INVITE, { users: [helper.id, admin2.id], org_roles: [BUILTIN_ROLE_IDS.OrgUser] }, inOrg());
    let c = await login();
    const body = { users: [target.id], org_roles: [BUILTIN_ROLE_IDS.OrgUser] };
    expect((await c.post(INVITE, body, inOrg())).statusCode).toBe(403);

    // A custom role that can invite: it may give a role within its own permissions…
    const perms = ['users.invite_user', 'users.view_user', 'users.match_user', 'rbac.view_console'];
    const inviter = (
      await admin.post('/api/v1/rbac/org-roles/', { name: 'Inviter', permissions: perms.map(permissionId) })
    ).json();
    const viewer = (
      await admin.post('/api/v1/rbac/org-roles/', { name: 'Viewer', permissions: [permissionId('users.view_user')] })
    ).json();
    await admin.post(INVITE, { users: [helper.id], org_roles: [inviter.id] }, inOrg());
    c = await login();
    expect((await c.post(INVITE, { users: [target.id], org_roles: [viewer.id] }, inOrg())).statusCode).toBe(201);
    // …but not OrgAdmin, nor a role holding more than it has (no escalation through an invitation).
    const up = await c.post(INVITE, { users: [target.id], org_roles: [BUILTIN_ROLE_IDS.OrgAdmin] }, inOrg());
    expect(up.statusCode).toBe(400);
    expect(up.json().org_roles[0]).toMatch(/cannot grant the role "Organization administrator"/);
    const auditor = await c.post(INVITE, { users: [target.id], org_roles: [BUILTIN_ROLE_IDS.OrgAuditor] }, inOrg());
    expect(auditor.statusCode).toBe(400);
    // Nor take an admin's role away by inviting him again with less.
    await admin.post(INVITE, { users: [admin2.id], org_roles: [BUILTIN_ROLE_IDS.OrgAdmin] }, inOrg());
    const demote = await c.post(INVITE, { users: [admin2.id], org_roles: [viewer.id] }, inOrg());
    expect(demote.statusCode).toBe(400);
    expect(demote.json().users[0]).toMatch(/cannot grant the role/);
    expect((await admin.get(`${U}${admin2.id}/`, inOrg())).json().org_roles.map((r: Row) => r.id)).toEqual([
      BUILTIN_ROLE_IDS.OrgAdmin,
    ]);
    // The helper is a member of this org only: elsewhere he has no invite permission.
    expect(
      (await c.post(INVITE, { users: [target.id], org_roles: [viewer.id] }, { 'x-jms-org': DEFAULT_ORG_ID }))
        .statusCode,
    ).toBe(403);
  });
});
