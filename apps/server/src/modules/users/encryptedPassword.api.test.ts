import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { encryptGatehouse, encryptLegacy } from '../../../test-support/transportSecret.ts';
import { browserPublicKey } from '../../../test-support/auth.ts';

/**
 * A password the console sends encrypted (its "Set password" field, the bulk update, the import)
 * is decrypted before it is checked and hashed: the user then signs in with it. Plain text from
 * API clients still works; a value marked encrypted that does not decrypt is refused on its field.
 */
let t: TestApp;
let admin: SessionClient;
let key: string;
const USERS = '/api/v1/users/users/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  // The console page gives the browser its key (sign-in spent the login page's).
  await admin.get('/ui/');
  key = browserPublicKey(admin);
});
afterAll(async () => t.close());

const signsIn = async (username: string, password: string) =>
  (await new SessionClient(t.app).login(username, password)).statusCode;

const create = (username: string, password: string) =>
  admin.post(USERS, {
    name: username,
    username,
    email: `${username}@example.com`,
    password_strategy: 'custom',
    password,
  });

describe('passwords set in the console', () => {
  it('lets a user created with an encrypted password sign in with it', async () => {
    const res = await create('enc-new', encryptGatehouse(key, 'Typed-pass-1!'));
    expect(res.statusCode).toBe(201);
    expect(await signsIn('enc-new', 'Typed-pass-1!')).toBe(200);
  });

  it('checks the password rules on the password as typed, not on its encrypted form', async () => {
    const res = await create('enc-short', encryptGatehouse(key, 'ab'));
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['password']);
  });

  it('changes a password sent encrypted, by the legacy scheme too, and in a bulk update', async () => {
    const id = (await create('enc-change', 'First-pass-1!')).json().id;
    expect(await signsIn('enc-change', 'First-pass-1!')).toBe(200);
    const patched = await admin.request({
      method: 'PATCH',
      url: `${USERS}${id}/`,
      payload: { password_strategy: 'custom', password: encryptLegacy(key, 'Second-pass-2!') },
    });
    expect(patched.statusCode).toBe(200);
    expect(await signsIn('enc-change', 'Second-pass-2!')).toBe(200);
    const bulk = await admin.request({
      method: 'PATCH',
      url: USERS,
      payload: [{ id, password_strategy: 'custom', password: encryptGatehouse(key, 'Third-pass-3!') }],
    });
    expect(bulk.statusCode).toBe(200);
    expect(await signsIn('enc-change', 'Third-pass-3!')).toBe(200);
  });

  it('refuses a value marked encrypted that does not decrypt, and saves nothing', async () => {
    const res = await create(
      'enc-bad',
      `gh1.${Buffer.alloc(256).toString('base64')}:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
    );
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['password']);
    expect((await admin.get(`${USERS}?username=enc-bad`)).json()).toEqual([]);
  });

  it('still takes a plain password from an API client', async () => {
    expect((await create('enc-plain', 'Plain-pass-1!')).statusCode).toBe(201);
    expect(await signsIn('enc-plain', 'Plain-pass-1!')).toBe(200);
  });
});
