import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { readTaskLog } from '../ops/taskLog.ts';
import { startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { ACCOUNTS, makeHost } from '../../../test-support/accounts.ts';
import { encryptGatehouse } from '../../../test-support/transportSecret.ts';
import { browserPublicKey } from '../../../test-support/auth.ts';

/** Account connectivity: a real SSH login to OpenSSH with each account's own password or key. */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;

beforeAll(async () => {
  sshd = await startSshd({ users: [{ username: 'vaultuser', password: 'Right-pass-1' }] });
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answer
async function finished(task: string): Promise<Record<string, any>> {
  for (let i = 0; i < 400; i++) {
    const s = (await admin.get(`/api/v1/ops/celery/task/${task}/`)).json();
    if (s.state === 'SUCCESS' || s.state === 'FAILURE') return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task did not finish');
}

describe('account connectivity test', () => {
  it('records Ok for the right password and key, Error for a wrong one, with progress in the task log', async () => {
    const host = await makeHost(admin, sshd.port);
    const make = async (body: Record<string, unknown>) =>
      (await admin.post(ACCOUNTS, { asset: host.id, username: sshd.username, ...body })).json();
    const right = await make({ secret: sshd.password });
    // The same user with a wrong password, on a second host of the same sshd (one password account per user and asset).
    const host2 = await makeHost(admin, sshd.port);
    const wrong = (
      await admin.post(ACCOUNTS, { asset: host2.id, username: sshd.username, secret: 'Wrong-pass-1' })
    ).json();
    const key = await make({ secret_type: 'ssh_key', secret: sshd.privateKey });
    const none = await make({ name: 'no-secret', secret_type: 'token' });

    const res = await admin.post(`${ACCOUNTS}tasks/`, {
      action: 'verify',
      accounts: [right.id, wrong.id, key.id, none.id],
    });
    expect(res.statusCode).toBe(200);
    const s = await finished(res.json().task);
    expect(s).toMatchObject({ state: 'SUCCESS', total: 4, done: 4 });
    expect(s.results.map((r: { connectivity: string }) => r.connectivity)).toEqual(['ok', 'err', 'ok', 'err']);
    const state = async (id: string) => (await admin.get(`${ACCOUNTS}${id}/`)).json();
    expect((await state(right.id)).connectivity).toEqual({ value: 'ok', label: 'Ok' });
    expect((await state(wrong.id)).connectivity.value).toBe('err');
    expect((await state(key.id)).date_verified).not.toBeNull();
    expect(s.results[3].error).toBe('Only password and SSH key accounts can be tested.');

    const log = await readTaskLog(t.deps.cache, res.json().task, 0, 1 << 20);
    expect(log.ended).toBe(true);
    expect(log.text).toContain(`ssh 127.0.0.1:${sshd.port} as ${sshd.username} with password`);
    expect(log.text).toContain('failed: All configured authentication methods failed');
    expect(log.text).not.toContain(sshd.password);
    expect(log.text).not.toContain('Wrong-pass-1');

    // A changed secret is what the next test uses.
    await admin.request({ method: 'PATCH', url: `${ACCOUNTS}${right.id}/`, payload: { secret: 'Now-wrong-1' } });
    const again = await finished(
      (await admin.post(`${ACCOUNTS}tasks/`, { action: 'test', accounts: [right.id] })).json().task,
    );
    expect(again.results[0].connectivity).toBe('err');
  }, 60_000);

  it('connects with a password and a key the console sent encrypted', async () => {
    await admin.get('/ui/');
    const key = browserPublicKey(admin);
    const host = await makeHost(admin, sshd.port);
    const make = async (body: Record<string, unknown>) =>
      (await admin.post(ACCOUNTS, { asset: host.id, username: sshd.username, ...body })).json();
    const password = await make({ secret: encryptGatehouse(key, sshd.password) });
    const sshKey = await make({ secret_type: 'ssh_key', secret: encryptGatehouse(key, sshd.privateKey) });
    const res = await admin.post(`${ACCOUNTS}tasks/`, { action: 'verify', accounts: [password.id, sshKey.id] });
    const s = await finished(res.json().task);
    expect(s.results.map((r: { connectivity: string }) => r.connectivity)).toEqual(['ok', 'ok']);
  });

  it('connects with the accounts an asset was created with, their secrets sent encrypted by the asset form', async () => {
    await admin.get('/ui/');
    const key = browserPublicKey(admin);
    // The asset form's body: the accounts group's secrets encrypted, each in its own item.
    const created = await admin.post('/api/v1/assets/hosts/', {
      name: 'created-with-accounts',
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: sshd.port }],
      accounts: [
        { username: sshd.username, secret_type: 'password', secret: encryptGatehouse(key, sshd.password) },
        {
          name: 'by-key',
          username: sshd.username,
          secret_type: 'ssh_key',
          secret: encryptGatehouse(key, sshd.privateKey),
          privileged: true,
        },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const host = created.json();
    const listed: { id: string; name: string; secret_type: { value: string }; privileged: boolean }[] = (
      await admin.get(`${ACCOUNTS}?asset=${host.id}`)
    ).json();
    expect(listed.map((a) => [a.name, a.secret_type.value, a.privileged])).toEqual([
      ['by-key', 'ssh_key', true],
      [sshd.username, 'password', false],
    ]);
    const res = await admin.post(`${ACCOUNTS}tasks/`, { action: 'verify', accounts: listed.map((a) => a.id) });
    const s = await finished(res.json().task);
    expect(s.results.map((r: { connectivity: string }) => r.connectivity)).toEqual(['ok', 'ok']);

    // A clone of the asset names the source's accounts by id: their secrets are copied, and still connect.
    const clone = await admin.post('/api/v1/assets/hosts/', {
      name: 'clone-with-accounts',
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port: sshd.port }],
      accounts: listed.map((a) => ({ id: a.id, name: a.name, username: sshd.username })),
    });
    expect(clone.statusCode, clone.body).toBe(201);
    const copies: { id: string }[] = (await admin.get(`${ACCOUNTS}?asset=${clone.json().id}`)).json();
    expect(copies).toHaveLength(2);
    const again = await finished(
      (await admin.post(`${ACCOUNTS}tasks/`, { action: 'verify', accounts: copies.map((a) => a.id) })).json().task,
    );
    expect(again.results.map((r: { connectivity: string }) => r.connectivity)).toEqual(['ok', 'ok']);
  });
});
