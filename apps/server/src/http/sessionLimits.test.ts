import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';

/** SECURITY_MAX_SESSION_TIME and SECURITY_MAX_IDLE_TIME end sessions (timestamps moved back, no sleeping). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const PROFILE = '/api/v1/users/profile/';

async function sessionRow(c: SessionClient) {
  const rows = await t.deps.database.db.selectFrom('auth_session').selectAll().execute();
  const { createHash } = await import('node:crypto');
  const id = createHash('sha256').update(c.jar.values.get(SESSION_COOKIE)!).digest('hex');
  return rows.find((r) => r.id === id)!;
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('session limits', () => {
  it('ends a session SECURITY_MAX_SESSION_TIME hours after login, however active it is', async () => {
    const c = await adminClient(t.app);
    expect((await c.get(PROFILE)).statusCode).toBe(200);
    const row = await sessionRow(c);
    const data = { ...JSON.parse(row.data), login_time: ago(24 * 3600_000 - 60_000) };
    await t.deps.database.db
      .updateTable('auth_session')
      .set({ data: JSON.stringify(data), last_active: ago(1000) })
      .where('id', '=', row.id)
      .execute();
    expect((await c.get(PROFILE)).statusCode).toBe(200);
    data.login_time = ago(24 * 3600_000 + 1000);
    await t.deps.database.db
      .updateTable('auth_session')
      .set({ data: JSON.stringify(data) })
      .where('id', '=', row.id)
      .execute();
    const res = await c.get(PROFILE);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('not_authenticated');
    expect(
      await t.deps.database.db.selectFrom('auth_session').select('id').where('id', '=', row.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('ends a session after SECURITY_MAX_IDLE_TIME minutes without a request, and follows the setting', async () => {
    const c = await adminClient(t.app);
    const row = await sessionRow(c);
    await t.deps.database.db
      .updateTable('auth_session')
      .set({ last_active: ago(29 * 60_000) })
      .where('id', '=', row.id)
      .execute();
    expect((await c.get(PROFILE)).statusCode).toBe(200);
    // That request counted as activity: the idle clock starts again.
    expect(Date.parse((await sessionRow(c)).last_active)).toBeGreaterThan(Date.now() - 10_000);

    await t.deps.settings.set('SECURITY_MAX_IDLE_TIME', 10);
    await t.deps.database.db
      .updateTable('auth_session')
      .set({ last_active: ago(11 * 60_000) })
      .where('id', '=', row.id)
      .execute();
    expect((await c.get(PROFILE)).statusCode).toBe(401);
    await t.deps.settings.set('SECURITY_MAX_IDLE_TIME', 30);
  });

  it('follows SECURITY_MAX_SESSION_TIME when it changes', async () => {
    const c = await adminClient(t.app);
    const row = await sessionRow(c);
    const data = { ...JSON.parse(row.data), login_time: ago(2 * 3600_000) };
    await t.deps.database.db
      .updateTable('auth_session')
      .set({ data: JSON.stringify(data) })
      .where('id', '=', row.id)
      .execute();
    expect((await c.get(PROFILE)).statusCode).toBe(200);
    await t.deps.settings.set('SECURITY_MAX_SESSION_TIME', 1);
    expect((await c.get(PROFILE)).statusCode).toBe(401);
    await t.deps.settings.set('SECURITY_MAX_SESSION_TIME', 24);
  });
});
