import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  ADMIN_PASSWORD,
  createTestApp,
  SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { EXPORT_CONFIRM_SETTING } from './exportGuard.ts';

/** Issue 5 around users: the export behind a re-verification, and the owner told of a new password. */
let t: TestApp;
let admin: SessionClient;
const U = '/api/v1/users/users/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('the users export', () => {
  it('needs a re-verification when the setting asks for it, and works again once confirmed', async () => {
    expect((await admin.get(`${U}?format=csv`)).statusCode).toBe(200);
    await t.deps.settings.set(EXPORT_CONFIRM_SETTING, true);
    try {
      const refused = await admin.get(`${U}?format=csv`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'password' });
      // The list itself is not guarded.
      expect((await admin.get(`${U}?limit=1`)).statusCode).toBe(200);
      expect(
        (await admin.post('/api/v1/authentication/confirm/', { confirm_type: 'password', secret_key: 'wrong' }))
          .statusCode,
      ).toBe(400);
      expect(
        (await admin.post('/api/v1/authentication/confirm/', { confirm_type: 'password', secret_key: ADMIN_PASSWORD }))
          .statusCode,
      ).toBe(200);
      const ok = await admin.get(`${U}?format=csv`);
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('admin');
    } finally {
      await t.deps.settings.set(EXPORT_CONFIRM_SETTING, false);
    }
  });
});

describe('a password set by an administrator', () => {
  it('sends the owner a site message', async () => {
    const created = await admin.post(U, {
      name: 'Notice',
      username: 'notice',
      email: 'notice@example.com',
      password_strategy: 'custom',
      password: 'Notice-pass1',
    });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;
    expect(
      (await admin.request({ method: 'PATCH', url: `${U}${id}/`, payload: { password: 'Notice-pass2' } })).statusCode,
    ).toBe(200);
    const owner = new SessionClient(t.app);
    expect((await owner.login('notice', 'Notice-pass2')).statusCode).toBe(200);
    const msgs = (await owner.get('/api/v1/notifications/site-messages/?has_read=false')).json() as
      { results?: { content: { subject: string } }[] } | { content: { subject: string } }[];
    const rows = Array.isArray(msgs) ? msgs : (msgs.results ?? []);
    expect(rows.map((m) => m.content.subject)).toContain('Your password was changed');
  });
});
