import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { confirmPassword, signedInUser } from '../../../../test-support/profile.ts';

/** Temporary passwords: created behind AUTH_TEMP_TOKEN and re-verification, usable once, for 300 s. */
let t: TestApp;
let bob: { id: string; client: SessionClient };
const TEMP = '/api/v1/authentication/temp-tokens/';

beforeAll(async () => {
  t = await createTestApp();
  bob = await signedInUser(t, 'bob');
});
afterAll(async () => t.close());

async function newTemp(): Promise<{ id: string; secret: string; username: string; is_valid: boolean }> {
  await confirmPassword(bob.client);
  const res = await bob.client.post(TEMP, {});
  expect(res.statusCode).toBe(201);
  return res.json();
}

const loginWith = async (password: string) => new SessionClient(t.app).login('bob', password);
const tokenWith = (password: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', payload: { username: 'bob', password } });

describe('temporary passwords', () => {
  it('are refused while AUTH_TEMP_TOKEN is off, and a secret then does not sign in', async () => {
    await t.deps.settings.set('AUTH_TEMP_TOKEN', true);
    const temp = await newTemp();
    await t.deps.settings.set('AUTH_TEMP_TOKEN', false);
    await confirmPassword(bob.client);
    const refused = await bob.client.post(TEMP, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe('Temporary passwords are not enabled.');
    expect((await loginWith(temp.secret)).statusCode).not.toBe(200);
  });

  it('sign in once on the login page, then no more; the list shows it used', async () => {
    await t.deps.settings.set('AUTH_TEMP_TOKEN', true);
    const temp = await newTemp();
    expect(temp.secret).toHaveLength(36);
    expect(temp).toMatchObject({ username: 'bob', is_valid: true });
    const first = await loginWith(temp.secret);
    expect(first.statusCode).toBe(200);
    expect(first.json().ok).toBe(true);
    const second = await loginWith(temp.secret);
    expect(second.json().ok).toBe(false);
    const listed = (await bob.client.get(TEMP)).json();
    const row = listed.find((r: { id: string }) => r.id === temp.id);
    expect(row).toMatchObject({ verified: true, is_valid: false });
    expect(row.date_verified).not.toBeNull();
  });

  it('sign in once through the token API too', async () => {
    const temp = await newTemp();
    expect((await tokenWith(temp.secret)).statusCode).toBe(201);
    expect((await tokenWith(temp.secret)).statusCode).toBe(400);
  });

  it('end after 300 seconds, and on expire', async () => {
    const temp = await newTemp();
    const stored = await t.deps.database.db
      .selectFrom('authentication_temptoken')
      .selectAll()
      .where('id', '=', temp.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(stored.date_expired) - Date.parse(stored.date_created)).toBe(300_000);
    expect(stored.secret).not.toContain(temp.secret);
    await t.deps.database.db
      .updateTable('authentication_temptoken')
      .set({ date_expired: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', temp.id)
      .execute();
    expect((await loginWith(temp.secret)).json().ok).toBe(false);

    const other = await newTemp();
    const expired = await bob.client.request({ method: 'PATCH', url: `${TEMP}${other.id}/expire/` });
    expect(expired.statusCode).toBe(204);
    expect((await bob.client.get(`${TEMP}${other.id}/`)).json().is_valid).toBe(false);
    expect((await loginWith(other.secret)).json().ok).toBe(false);
  });

  it('belong to their user only', async () => {
    const temp = await newTemp();
    const eve = await signedInUser(t, 'eve');
    expect((await eve.client.get(TEMP)).json()).toEqual([]);
    expect((await eve.client.get(`${TEMP}${temp.id}/`)).statusCode).toBe(404);
    expect((await eve.client.request({ method: 'PATCH', url: `${TEMP}${temp.id}/expire/` })).statusCode).toBe(404);
    // Bob's temporary password is no password of eve's.
    expect((await new SessionClient(t.app).login('eve', temp.secret)).json().ok).toBe(false);
    expect((await loginWith(temp.secret)).json().ok).toBe(true);
  });
});
