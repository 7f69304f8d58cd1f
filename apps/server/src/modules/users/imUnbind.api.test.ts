import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import {
  adminClient,
  ADMIN_PASSWORD,
  createTestApp,
  SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { confirmPassword, signedInUser } from '../../../test-support/profile.ts';

/**
 * An administrator removes a user's WeCom / DingTalk / FeiShu binding
 * (`POST /api/v1/authentication/<x>/qr/unbind/<user_id>/`): users.change_user, a fresh
 * re-verification, users of the caller's organisation only, never one whose roles the caller could
 * not manage. The bindings are written straight to the table: no messenger is asked here.
 */
let t: TestApp;
let admin: SessionClient;
let orgAdmin: SessionClient;
let orgA: string;
let orgB: string;
const PASSWORD = 'Unbind-pass1';
const U = '/api/v1/users/users/';
const unbindUrl = (p: string, id: string) => `/api/v1/authentication/${p}/qr/unbind/${id}/`;

async function createIn(org: string, username: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await admin.post(
    U,
    {
      name: username,
      username,
      email: `${username}@example.com`,
      password_strategy: 'custom',
      password: PASSWORD,
      ...extra,
    },
    { 'x-jms-org': org },
  );
  if (res.statusCode !== 201) throw new Error(`create ${username}: ${res.body}`);
  const id = res.json().id as string;
  await t.deps.database.db
    .updateTable('users_user')
    .set({ wecom_id: `wc-${username}`, dingtalk_id: `dt-${username}`, feishu_id: `fs-${username}` })
    .where('id', '=', id)
    .execute();
  return id;
}

const bindings = (id: string) =>
  t.deps.database.db
    .selectFrom('users_user')
    .select(['wecom_id', 'dingtalk_id', 'feishu_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgA = (await admin.post('/api/v1/orgs/orgs/', { name: 'Unbind A' })).json().id;
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Unbind B' })).json().id;
  await createIn(orgA, 'u_orgadmin', { org_roles: [BUILTIN_ROLE_IDS.OrgAdmin] });
  orgAdmin = new SessionClient(t.app);
  expect((await orgAdmin.login('u_orgadmin', PASSWORD)).statusCode).toBe(200);
}, 60_000);
afterAll(async () => t.close());

describe('an administrator unbinding a messenger', () => {
  it('needs a fresh re-verification, then unbinds that messenger only and logs it', async () => {
    const id = await createIn(orgA, 'u_wei');
    const first = await admin.post(unbindUrl('wecom', id), {}, { 'x-jms-org': orgA });
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ code: 'relogin' });
    expect((await bindings(id)).wecom_id).toBe('wc-u_wei');

    await confirmPassword(admin, ADMIN_PASSWORD);
    const done = await admin.post(unbindUrl('wecom', id), {}, { 'x-jms-org': orgA });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ msg: 'WeCom is no longer bound to u_wei.' });
    expect(await bindings(id)).toEqual({ wecom_id: null, dingtalk_id: 'dt-u_wei', feishu_id: 'fs-u_wei' });
    const again = await admin.post(unbindUrl('wecom', id), {}, { 'x-jms-org': orgA, 'accept-language': 'ja' });
    expect(again.statusCode).toBe(400);
    expect(again.json().msg).toBe('u_wei は WeCom と連携していません。');
    const zh = await admin.post(unbindUrl('feishu', id), {}, { 'x-jms-org': orgA, 'accept-language': 'zh' });
    expect(zh.json().msg).toBe('已解除 FeiShu 与 u_wei 的绑定。');

    const log = await t.deps.database.db
      .selectFrom('audits_operatelog')
      .select(['resource', 'diff'])
      .where('resource_id', '=', id)
      .orderBy('datetime', 'desc')
      .executeTakeFirstOrThrow();
    expect(log.resource).toContain('u_wei');
    expect(JSON.parse(log.diff)).toEqual([{ field: 'feishu_id', before: 'fs-u_wei', after: '' }]);
    // The user keeps the profile's own unbinding for what is left.
    const owner = new SessionClient(t.app);
    expect((await owner.login('u_wei', PASSWORD)).statusCode).toBe(200);
    await confirmPassword(owner, PASSWORD);
    expect((await owner.post('/api/v1/authentication/dingtalk/qr/unbind/', {})).statusCode).toBe(200);
    expect(await bindings(id)).toEqual({ wecom_id: null, dingtalk_id: null, feishu_id: null });
  });

  it('is refused to a user without users.change_user, even re-verified', async () => {
    const id = await createIn(orgA, 'u_target');
    const plain = await signedInUser(t, 'u_plain');
    await confirmPassword(plain.client);
    expect((await plain.client.post(unbindUrl('dingtalk', id), {})).statusCode).toBe(403);
    expect((await bindings(id)).dingtalk_id).toBe('dt-u_target');
  });

  it('lets an org admin unbind a member of their org only', async () => {
    await confirmPassword(orgAdmin, PASSWORD);
    const A = { 'x-jms-org': orgA };
    const local = await createIn(orgA, 'u_local');
    const ok = await orgAdmin.post(unbindUrl('dingtalk', local), {}, A);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await bindings(local)).dingtalk_id).toBeNull();

    // Of another org only: not visible from org A.
    const foreign = await createIn(orgB, 'u_foreign');
    expect((await orgAdmin.post(unbindUrl('wecom', foreign), {}, A)).statusCode).toBe(404);
    expect((await orgAdmin.post(unbindUrl('wecom', foreign), {}, { 'x-jms-org': orgB })).statusCode).toBe(403);
    // A member of org A and org B: the org admin of A does not manage them.
    const shared = await createIn(orgA, 'u_shared');
    await t.deps.database.db
      .insertInto('rbac_rolebinding')
      .values({
        id: crypto.randomUUID(),
        user_id: shared,
        role_id: BUILTIN_ROLE_IDS.OrgUser,
        scope: 'org',
        org_id: orgB,
        created_by: 'test',
        date_created: new Date().toISOString(),
      })
      .execute();
    expect((await orgAdmin.post(unbindUrl('wecom', shared), {}, A)).statusCode).toBe(403);
    // A superuser who is a member of org A.
    const boss = await createIn(orgA, 'u_boss', {
      system_roles: [BUILTIN_ROLE_IDS.SystemAdmin],
      org_roles: [BUILTIN_ROLE_IDS.OrgUser],
    });
    expect((await orgAdmin.post(unbindUrl('feishu', boss), {}, A)).statusCode).toBe(403);
    expect(await bindings(foreign)).toEqual({
      wecom_id: 'wc-u_foreign',
      dingtalk_id: 'dt-u_foreign',
      feishu_id: 'fs-u_foreign',
    });
    expect((await bindings(shared)).wecom_id).toBe('wc-u_shared');
    expect((await bindings(boss)).feishu_id).toBe('fs-u_boss');
  });
});
