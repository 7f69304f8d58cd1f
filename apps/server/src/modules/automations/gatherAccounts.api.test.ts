import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { osUser, startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * Gather (issue 30, item 3): an account created on a real host behind the vault's back is found
 * (from the host's own account database), shown as new against the vault, and synced into it.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let hidden: ReturnType<typeof osUser>;

beforeAll(async () => {
  sshd = await startSshd({ osUsers: [] });
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 60_000);

afterAll(async () => {
  await t?.close();
  sshd?.stop();
  hidden?.remove();
});

describe('gather accounts', () => {
  it('finds an account made behind the vault, shows it as new and syncs it into the vault', async () => {
    const post = apiPost(admin);
    const host = await linuxHost(post, sshd.port);
    await post(ACCOUNTS, {
      asset: host.id,
      username: 'root',
      secret_type: 'ssh_key',
      secret: sshd.privateKey,
      privileged: true,
    });
    hidden = osUser('Hidden-pass-1');
    const plan = await post('/api/v1/accounts/gather-account-automations/', {
      name: 'gather-host',
      assets: [host.id],
      is_periodic: false,
    });
    const res = await admin.post('/api/v1/accounts/gather-account-executions/', { automation: plan.id });
    expect(res.statusCode, res.body).toBe(201);
    const url = `/api/v1/accounts/gather-account-executions/${res.json().task}/`;
    await expect.poll(async () => (await admin.get(url)).json().status?.value, { timeout: 60_000 }).toBe('success');
    const found = (await admin.get(`/api/v1/accounts/gathered-accounts/?asset_id=${host.id}`)).json() as Json[];
    const mine = found.find((g) => g.username === hidden.username);
    expect(mine).toMatchObject({ present: true, vault: 'new', asset: { id: host.id } });
    expect(found.find((g) => g.username === 'root')).toMatchObject({ vault: 'same' });
    // Refused without a list; then synced.
    expect((await admin.post('/api/v1/accounts/gathered-accounts/sync-accounts/', {})).statusCode).toBe(400);
    const sync = await admin.post('/api/v1/accounts/gathered-accounts/sync-accounts/', {
      gathered_account_ids: [mine!.id],
    });
    expect(sync.statusCode, sync.body).toBe(201);
    const vault = (await admin.get(`${ACCOUNTS}?asset=${host.id}&username=${hidden.username}`)).json() as Json[];
    expect(vault).toHaveLength(1);
    expect(vault[0]!.source).toMatchObject({ value: 'collected' });
    const again = (await admin.get(`/api/v1/accounts/gathered-accounts/?asset_id=${host.id}`)).json() as Json[];
    expect(again.find((g) => g.username === hidden.username)?.vault).toBe('same');
    // Gone from the host: the next gather marks it no longer present.
    hidden.remove();
    const second = await admin.post('/api/v1/accounts/gather-account-executions/', { automation: plan.id });
    const url2 = `/api/v1/accounts/gather-account-executions/${second.json().task}/`;
    await expect.poll(async () => (await admin.get(url2)).json().status?.value, { timeout: 60_000 }).toBe('success');
    const third = (await admin.get(`/api/v1/accounts/gathered-accounts/?asset_id=${host.id}`)).json() as Json[];
    expect(third.find((g) => g.username === hidden.username)?.present).toBe(false);
  }, 90_000);
});
