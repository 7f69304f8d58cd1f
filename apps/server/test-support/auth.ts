import { randomUUID } from 'node:crypto';
import { PUBLIC_KEY_COOKIE } from '@gatehouse/contract';
import { hashPassword } from '../src/platform/crypto/password.ts';
import { defaultDateExpired } from '../src/modules/bootstrap/seed.ts';
import type { SessionClient, TestApp } from './testApp.ts';
import { publicKeyFromCookie } from './transportSecret.ts';
import { totpCode } from '../src/modules/authentication/mfa/otp.ts';

/** Helpers for the authentication and notification tests. */

export const USER_PASSWORD = 'User-pass-1!';

/** A local user without roles, straight into the database. */
export async function createUser(
  t: TestApp,
  username: string,
  extra: { phone?: string; mfa_level?: number; password?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await t.deps.database.db
    .insertInto('users_user')
    .values({
      id,
      username,
      name: `User ${username}`,
      email: `${username}@example.com`,
      password: await hashPassword(extra.password ?? USER_PASSWORD),
      is_active: true,
      is_first_login: true,
      need_update_password: false,
      is_service_account: false,
      source: 'local',
      mfa_level: extra.mfa_level ?? 0,
      phone: extra.phone ?? '',
      wechat: '',
      comment: '',
      date_expired: defaultDateExpired(),
      date_joined: now,
      last_login: null,
      date_password_last_updated: now,
      created_by: 'test',
      updated_by: 'test',
      date_updated: now,
    })
    .execute();
  return id;
}

/** The PEM public key the browser was given, from its cookie. */
export function browserPublicKey(c: SessionClient): string {
  const cookie = c.jar.values.get(PUBLIC_KEY_COOKIE);
  if (!cookie) throw new Error('no jms_public_key cookie');
  return publicKeyFromCookie(cookie);
}

/** An authenticator app's code, `steps` time steps from now (codes are accepted once, so tests move on). */
export function codeAt(secret: string, steps = 0): string {
  return totpCode(secret, Date.now() + steps * 30_000);
}

/** Binds TOTP for the signed-in client (re-verifying first) and returns the seed. */
export async function bindTotp(c: SessionClient): Promise<string> {
  const confirm = await c.post('/api/v1/authentication/confirm/', { confirm_type: 'relogin' });
  if (confirm.statusCode !== 200) throw new Error(`confirm failed: ${confirm.body}`);
  const start = await c.post('/api/v1/authentication/otp/bind/start/', {});
  if (start.statusCode !== 200) throw new Error(`bind start failed: ${start.body}`);
  const { secret } = start.json() as { secret: string };
  const bind = await c.post('/api/v1/authentication/otp/bind/', { code: codeAt(secret, -1) });
  if (bind.statusCode !== 200) throw new Error(`bind failed: ${bind.body}`);
  return secret;
}
