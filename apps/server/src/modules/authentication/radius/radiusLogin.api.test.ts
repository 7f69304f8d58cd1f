import dgram from 'node:dgram';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { createUser } from '../../../../test-support/auth.ts';
import { freePort } from '../../../../test-support/ports.ts';
import { SshClient } from '../../../../test-support/sshClients.ts';
import { radiusSettings, startFreeradius, type FreeRadius } from '../../../../test-support/freeradius.ts';

/** Sign-in and the RADIUS MFA code against a real FreeRADIUS: user creation, login log, lock, timeouts. */
let t: TestApp;
let admin: SessionClient;
let radius: FreeRadius;
let sshPort: number;
const SETTINGS = '/api/v1/settings/setting/?category=radius';

const auth = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/authentication/auth/', payload: { username, password } });

async function lastLogin(username: string) {
  const row = await t.deps.database.db
    .selectFrom('audits_userloginlog')
    .selectAll()
    .where('username', '=', username)
    .orderBy('datetime', 'desc')
    .executeTakeFirst();
  return row && { ...row, status: Boolean(row.status) };
}

beforeAll(async () => {
  radius = await startFreeradius([
    { username: 'rita', password: 'Rita-pass-1' },
    { username: 'rob', password: 'Rob-pass-1' },
    // The RADIUS server checks this local user's one-time code (OTP_IN_RADIUS).
    { username: 'tokenuser', password: '246810' },
  ]);
  sshPort = await freePort();
  t = await createTestApp({ GATEHOUSE_SSH_PORT: String(sshPort) });
  admin = await adminClient(t.app);
  const res = await admin.patch(SETTINGS, radiusSettings(radius, { RADIUS_TIMEOUT: 1 }));
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  radius.stop();
});

describe('RADIUS sign-in', () => {
  it('signs a RADIUS user in on the login page, creating the user with source radius', async () => {
    const c = new SessionClient(t.app);
    const res = await c.login('rita', 'Rita-pass-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ok).toBe(true);
    const user = await t.deps.database.db
      .selectFrom('users_user')
      .select(['source', 'name', 'email', 'password'])
      .where('username', '=', 'rita')
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ source: 'radius', name: 'rita', email: 'rita@example.com', password: '' });
    expect(await lastLogin('rita')).toMatchObject({ status: true, backend: 'radius' });
    const logs = await admin.get('/api/v1/audits/login-logs/?username=rita');
    expect(logs.json().results?.[0] ?? logs.json()[0]).toMatchObject({ backend_display: 'Radius' });
  });

  it('refuses a wrong password, counts it toward the lock and logs it', async () => {
    const first = await auth('rob', 'wrong');
    expect(first.statusCode).toBe(400);
    expect(first.json().error).toBe('password_failed');
    expect(await lastLogin('rob')).toMatchObject({ status: false, reason: 'password_failed', backend: 'radius' });
    for (let i = 0; i < 10; i++) if ((await auth('rob', 'wrong')).json().error === 'block_login') break;
    expect((await auth('rob', 'Rob-pass-1')).json().error).toBe('block_login');
  });

  it('refuses, never a 500, a name or password longer than RADIUS can carry', async () => {
    expect((await auth('r'.repeat(300), 'Rita-pass-1')).json().error).toBe('password_failed');
    expect((await auth('rita', 'p'.repeat(200))).json().error).toBe('password_failed');
    expect((await auth('rita', 'Rita-pass-1')).statusCode).toBe(201);
  });

  it('keeps the shared secret sealed and out of GET', async () => {
    const got = (await admin.get(SETTINGS)).json();
    expect(got).toMatchObject({ AUTH_RADIUS: true, RADIUS_PORT: radius.port });
    expect(got).not.toHaveProperty('RADIUS_SECRET');
    const row = await t.deps.database.db
      .selectFrom('settings_setting')
      .select(['value', 'encrypted'])
      .where('name', '=', 'RADIUS_SECRET')
      .executeTakeFirstOrThrow();
    expect(Boolean(row.encrypted)).toBe(true);
    expect(row.value).not.toContain(radius.secret);
    // Sent empty, the secret is kept: sign-in still works.
    expect((await admin.patch(SETTINGS, { RADIUS_SECRET: '' })).statusCode).toBe(200);
    expect((await auth('rita', 'Rita-pass-1')).statusCode).toBe(201);
  });

  it('ends in a clear message, not a hang, when the server does not answer; nobody is locked', async () => {
    const silent = dgram.createSocket('udp4');
    silent.bind(0, '127.0.0.1');
    await once(silent, 'listening');
    let seen = 0;
    silent.on('message', () => (seen += 1));
    await t.deps.settings.set('RADIUS_PORT', silent.address().port);
    await t.deps.settings.set('SECURITY_LOGIN_LIMIT_COUNT', 3);
    try {
      const started = Date.now();
      for (let i = 0; i < 4; i++) {
        const res = await auth('rita', 'Rita-pass-1');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: 'radius_unavailable' });
        expect(res.json().msg).toContain('RADIUS server did not answer');
        if (i === 0) expect(Date.now() - started).toBeLessThan(4000);
      }
      expect(seen).toBeGreaterThanOrEqual(4);
      expect(await lastLogin('rita')).toMatchObject({ status: false, reason: 'radius_unavailable' });
    } finally {
      await t.deps.settings.set('RADIUS_PORT', radius.port);
      await t.deps.settings.set('SECURITY_LOGIN_LIMIT_COUNT', 7);
      silent.close();
    }
    // More outages than the lock's limit, yet the user is not locked out.
    expect((await auth('rita', 'Rita-pass-1')).statusCode).toBe(201);
  });

  it('leaves local users to their local password', async () => {
    await createUser(t, 'localrad', { password: 'Local-pass-1!' });
    expect((await auth('localrad', 'Local-pass-1!')).statusCode).toBe(201);
    expect(await lastLogin('localrad')).toMatchObject({ status: true, backend: 'password' });
  });

  it('accepts the RADIUS password on native SSH (OpenSSH client)', async () => {
    const c = new SshClient(sshPort, 'rita', { password: 'Rita-pass-1' });
    await c.waitFor('Opt> ');
    expect(c.text).toContain('Welcome to Gatehouse');
    await c.line('q');
    expect(await c.exited).toBe(0);
    expect(await lastLogin('rita')).toMatchObject({ status: true, backend: 'radius', type: 'T' });
  });

  it('re-verifies a RADIUS user with the RADIUS password, not a local one', async () => {
    const c = new SessionClient(t.app);
    expect((await c.login('rita', 'Rita-pass-1')).json().ok).toBe(true);
    const CONFIRM = '/api/v1/authentication/confirm/';
    const wrong = await c.post(CONFIRM, { confirm_type: 'password', secret_key: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    const ok = await c.post(CONFIRM, { confirm_type: 'password', secret_key: 'Rita-pass-1' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('checks the MFA code with the RADIUS server under OTP_IN_RADIUS', async () => {
    await createUser(t, 'tokenuser', { mfa_level: 1, password: 'Token-pass-1!' });
    expect((await admin.patch(SETTINGS, { OTP_IN_RADIUS: true })).statusCode).toBe(200);
    const c = new SessionClient(t.app);
    const first = await c.login('tokenuser', 'Token-pass-1!');
    expect(first.json()).toMatchObject({ ok: false, error: 'mfa_required', data: { choices: ['otp_radius'] } });
    const wrong = await c.post('/core/auth/login/mfa/', { mfa_type: 'otp_radius', code: '135790' });
    expect(wrong.json()).toMatchObject({ ok: false, error: 'mfa_failed' });
    expect(wrong.json().msg).toContain('RADIUS server refused the code');
    const done = await c.post('/core/auth/login/mfa/', { mfa_type: 'otp_radius', code: '246810' });
    expect(done.json(), done.body).toMatchObject({ ok: true });
    expect((await admin.patch(SETTINGS, { OTP_IN_RADIUS: false })).statusCode).toBe(200);
  });
});
