import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { randomUUID } from 'node:crypto';
import { SETTING_CATEGORIES, settingCategoryPerm } from '@gatehouse/contract';
import { makeUser, PASSWORD } from '../../../test-support/perms.ts';
import { customRole } from '../../../test-support/roles.ts';

/**
 * Settings › Features (categories `announcement`, `ticket`, `ops`, superusers only): the
 * announcement gets a new id on each save and reaches every signed-in user through the public
 * settings; the command blacklist is a checked list the job centre reads.
 */
let t: TestApp;
let admin: SessionClient;
let user: SessionClient;
const URL = '/api/v1/settings/setting/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  await makeUser(admin, 'reader');
  user = new SessionClient(t.app);
  await user.login('reader', PASSWORD);
});
afterAll(async () => t.close());

describe('announcement', () => {
  it('gets a new ID on each save and reaches another user through the public settings', async () => {
    const body = {
      ANNOUNCEMENT_ENABLED: true,
      ANNOUNCEMENT: { SUBJECT: 'Maintenance', CONTENT: 'Sunday 2:00', LINK: '' },
    };
    const first = await admin.patch(`${URL}?category=announcement`, body);
    expect(first.statusCode, first.body).toBe(200);
    const a1 = first.json().ANNOUNCEMENT;
    expect(a1).toEqual({ ID: expect.stringMatching(UUID), SUBJECT: 'Maintenance', CONTENT: 'Sunday 2:00', LINK: '' });
    const seen = (await user.get('/api/v1/settings/public/')).json();
    expect(seen.ANNOUNCEMENT_ENABLED).toBe(true);
    expect(seen.ANNOUNCEMENT).toEqual(a1);
    const second = (await admin.patch(`${URL}?category=announcement`, body)).json().ANNOUNCEMENT;
    expect(second.ID).not.toBe(a1.ID);
    // An ID sent by the client is not kept.
    const forged = (
      await admin.patch(`${URL}?category=announcement`, { ANNOUNCEMENT: { ...body.ANNOUNCEMENT, ID: a1.ID } })
    ).json().ANNOUNCEMENT;
    expect(forged.ID).not.toBe(a1.ID);
  });

  it('refuses a link that is not http(s), a blank subject, and anyone but a superuser', async () => {
    const bad = await admin.patch(`${URL}?category=announcement`, {
      ANNOUNCEMENT: { SUBJECT: '', CONTENT: 'x', LINK: 'javascript:alert(1)' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().ANNOUNCEMENT[0]).toMatch(/SUBJECT: .*; LINK: /);
    expect((await user.get(`${URL}?category=announcement`)).statusCode).toBe(403);
    expect((await user.patch(`${URL}?category=ops`, { SECURITY_COMMAND_EXECUTION: false })).statusCode).toBe(403);
  });
});

describe('ops', () => {
  it('keeps the blacklist as a list without blanks or duplicates, and bounds it', async () => {
    const res = await admin.patch(`${URL}?category=ops`, { SECURITY_COMMAND_BLACKLIST: ['reboot', ' rm ', 'rm', ''] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().SECURITY_COMMAND_BLACKLIST).toEqual(['reboot', 'rm']);
    expect((await user.get('/api/v1/settings/public/')).json().SECURITY_COMMAND_BLACKLIST).toEqual(['reboot', 'rm']);
    const long = await admin.patch(`${URL}?category=ops`, { SECURITY_COMMAND_BLACKLIST: ['x'.repeat(200)] });
    expect(long.statusCode).toBe(400);
    const many = await admin.patch(`${URL}?category=ops`, {
      SECURITY_COMMAND_BLACKLIST: Array.from({ length: 201 }, (_, i) => `c${i}`),
    });
    expect(many.statusCode).toBe(400);
    expect((await admin.patch(`${URL}?category=ops`, { SECURITY_COMMAND_BLACKLIST: 'reboot' })).json()).toEqual(
      expect.objectContaining({ SECURITY_COMMAND_BLACKLIST: ['reboot'] }),
    );
  });
});

/** A user holding exactly `perms` through a custom system role. */
async function holder(name: string, perms: string[]): Promise<SessionClient> {
  const u = await makeUser(admin, name);
  const db = t.deps.database.db;
  const role = await customRole(db, `role-${name}`, 'system', perms);
  await db.deleteFrom('rbac_rolebinding').where('user_id', '=', u.id).execute();
  await db
    .insertInto('rbac_rolebinding')
    .values({
      id: randomUUID(),
      user_id: u.id,
      role_id: role,
      scope: 'system',
      org_id: null,
      created_by: 'test',
      date_created: new Date().toISOString(),
    })
    .execute();
  const c = new SessionClient(t.app);
  expect((await c.login(name, PASSWORD)).statusCode).toBe(200);
  return c;
}

describe('category permissions', () => {
  it('every declared category answers exactly the holders of its permission (superuser-only ones nobody else)', async () => {
    const wrong: string[] = [];
    const byPerm = new Map<string, SessionClient>();
    const outsider = await holder('perm-none', ['settings.view_setting']);
    for (const category of Object.keys(SETTING_CATEGORIES)) {
      const perm = settingCategoryPerm(category);
      if (category === 'basic') continue;
      if (perm !== 'superuser' && !byPerm.has(perm))
        byPerm.set(perm, await holder(`perm-${perm.split('.')[1]}`, ['settings.view_setting', perm]));
      const allowed = perm === 'superuser' ? undefined : byPerm.get(perm)!;
      if (allowed && (await allowed.get(`${URL}?category=${category}`)).statusCode !== 200)
        wrong.push(`${category}: its holder refused`);
      const res = await outsider.get(`${URL}?category=${category}`);
      if (res.statusCode !== 403) wrong.push(`${category}: an outsider got ${res.statusCode}`);
      const write = await outsider.patch(`${URL}?category=${category}`, {});
      if (write.statusCode !== 403) wrong.push(`${category}: an outsider wrote (${write.statusCode})`);
    }
    expect(wrong).toEqual([]);
    expect(settingCategoryPerm('email')).toBe('settings.change_email');
    expect(settingCategoryPerm('sms')).toBe('settings.change_sms');
    expect(settingCategoryPerm('vault')).toBe('settings.change_vault');
    expect(settingCategoryPerm('announcement')).toBe('superuser');
  });
});
