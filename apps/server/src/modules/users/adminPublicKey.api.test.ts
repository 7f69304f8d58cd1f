import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionClient, TestApp } from '../../../test-support/testApp.ts';
import { makePerm, makeUser } from '../../../test-support/perms.ts';
import type { SshdWithUsers } from '../../../test-support/sshd.ts';
import { nativeSshApp, runSsh, userKeyPair } from '../../../test-support/sshClients.ts';

/**
 * Issue 36: an administrator sets a user's SSH public key through `users/users/` (write-only, as
 * v3.7.1's user form sends it), validated as the profile's route validates it, and the user then
 * signs in with that key on the native SSH port, with the real OpenSSH client.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let port: number;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
const key = userKeyPair();
let uid: string;

beforeAll(async () => {
  ({ sshd, port, t, admin, target } = await nativeSshApp());
  uid = (await makeUser(admin, 'kim')).id;
  await makePerm(admin, { users: [uid], assets: [target.host.id], accounts: ['@ALL'], actions: ['all'] });
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

const U = '/api/v1/users/users/';
const signIn = () =>
  runSsh(port, key.file, `kim@${target.password.name}@${target.host.name}`, 'echo signed-in-$((40+2))');

describe('public_key on users/users/', () => {
  it('refuses what is not a public key, in the caller’s language, and keeps the user as it was', async () => {
    const bad = await admin.patch(`${U}${uid}/`, { public_key: 'ssh-ed25519 not-base64 x', email: 'kim2@example.com' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ public_key: ['Not a valid ssh public key'] });
    const zh = await admin.patch(`${U}${uid}/`, { public_key: 'hello' }, { 'accept-language': 'zh-CN' });
    expect(zh.json()).toEqual({ public_key: ['不是有效的 SSH 公钥'] });
    expect((await admin.get(`${U}${uid}/`)).json().email).toBe('kim@corp.example');
    expect((await signIn()).code).not.toBe(0);
  });

  it('takes a key, never shows it back, and the user signs in with it on the native SSH port', async () => {
    const res = await admin.patch(`${U}${uid}/`, { public_key: `  ${key.publicKey}\n` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('public_key');
    expect((await admin.get(`${U}${uid}/`)).json()).not.toHaveProperty('public_key');
    const r = await signIn();
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('signed-in-42');
  }, 30_000);

  it('removes the key with an empty value: the key no longer signs in', async () => {
    expect((await admin.patch(`${U}${uid}/`, { public_key: '' })).statusCode).toBe(200);
    expect((await signIn()).code).not.toBe(0);
  }, 30_000);
});
