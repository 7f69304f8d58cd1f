import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeUser, PASSWORD } from '../../../test-support/perms.ts';
import { freePort } from '../../../test-support/ports.ts';
import { SshClient, userKeyPair } from '../../../test-support/sshClients.ts';

/**
 * The profile's SSH public key: set through the API (bad input refused in the user's language,
 * a private key never stored), shown as comment and MD5 fingerprint, then used by the real
 * OpenSSH client (`ssh -i`) to sign in to the native SSH server.
 */
let t: TestApp;
let kim: SessionClient;
let port: number;
const URL = '/api/v1/users/profile/public-key/';
const send = (method: 'PUT' | 'PATCH', payload: unknown, headers: Record<string, string> = {}) =>
  kim.request({ method, url: URL, payload: payload as string, headers });

beforeAll(async () => {
  port = await freePort();
  t = await createTestApp({ GATEHOUSE_SSH_PORT: String(port) });
  const admin = await adminClient(t.app);
  await makeUser(admin, 'kim');
  kim = new SessionClient(t.app);
  expect((await kim.login('kim', PASSWORD)).statusCode).toBe(200);
}, 30_000);
afterAll(async () => {
  await t?.close();
});

describe('profile public key', () => {
  it('refuses what is not an SSH public key, in the user language, and never stores a private key', async () => {
    const bad = await send('PUT', { public_key: 'ssh-ed25519 not-base64 x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ public_key: ['Not a valid ssh public key'] });
    const zh = await send('PUT', { public_key: 'hello' }, { 'accept-language': 'zh-CN' });
    expect(zh.json()).toEqual({ public_key: ['不是有效的 SSH 公钥'] });
    const pair = userKeyPair();
    const priv = await send('PUT', { public_key: fs.readFileSync(pair.file, 'utf8') });
    expect(priv.statusCode).toBe(400);
    const row = await t.deps.database.db
      .selectFrom('users_user')
      .select('public_key')
      .where('username', '=', 'kim')
      .executeTakeFirstOrThrow();
    expect(row.public_key).toBe('');
  });

  it('sets the key, shows its comment and fingerprint, and the key signs in with ssh -i', async () => {
    const pair = userKeyPair();
    const set = await send('PUT', { public_key: `${pair.publicKey}\n` });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().public_key_comment).toBe('test@gatehouse');
    expect(set.json().public_key_hash_md5).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    const profile = (await kim.get('/api/v1/users/profile/')).json();
    expect(profile.public_key_hash_md5).toBe(set.json().public_key_hash_md5);

    const c = new SshClient(port, 'kim', { password: '', identity: pair.file });
    await c.waitFor('Opt> ');
    await c.line('q');
    expect(await c.exited).toBe(0);

    // Removed: the key no longer signs in.
    expect((await send('PATCH', { public_key: '' })).json()).toEqual({
      public_key_comment: '',
      public_key_hash_md5: '',
    });
    const refused = new SshClient(port, 'kim', { password: '', identity: pair.file });
    expect(await refused.exited).not.toBe(0);
  }, 30_000);

  it('is for signed-in users only', async () => {
    const anon = new SessionClient(t.app);
    expect((await anon.get(URL)).statusCode).toBe(401);
  });
});
