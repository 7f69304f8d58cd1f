import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { makeNode, makeUser, PASSWORD, PERMS } from '../../../test-support/perms.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { SshClient } from '../../../test-support/sshClients.ts';
import { freePort } from '../../../test-support/ports.ts';
import { sshLogin } from '../accounts/verify.ts';

/**
 * A permission's `%<template>` accounts (contract §4.12, issue 30): saving the permission creates
 * the template's account on its assets (here through a node) and pushes it when the template asks
 * (`auto_push`), in one push execution; the permission's user then signs in with it through the
 * gateway's native SSH. Saving again creates nothing. A real sshd; the user made on this machine
 * is removed after.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const tag = randomBytes(3).toString('hex');
const pushed = `ghta${tag}`;
const kept = `ghtb${tag}`;
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let sshPort: number;
let host: Json;

const templateRuns = () =>
  t.deps.database.db
    .selectFrom('ops_jobexecution')
    .select(['id', 'is_finished', 'job_version'])
    .where('material', '=', 'push_account:template')
    .execute();

const finished = (r: { is_finished: unknown }) => r.is_finished === true || Number(r.is_finished) === 1;

const accountsOf = async (username: string, asset = host.id): Promise<Json[]> =>
  (await admin.get(`${ACCOUNTS}?asset=${asset}&username=${username}`)).json();

beforeAll(async () => {
  sshd = await startSshd({ osUsers: [pushed] });
  sshPort = await freePort();
  t = await createTestApp({ GATEHOUSE_SSH_PORT: String(sshPort) });
  admin = await adminClient(t.app);
  const node = await makeNode(admin, `tpl-${tag}`);
  host = await linuxHost(apiPost(admin), sshd.port, { nodes: [node.id] });
  host.node = node;
  await apiPost(admin)(ACCOUNTS, {
    asset: host.id,
    username: 'root',
    secret_type: 'ssh_key',
    secret: sshd.privateKey,
    privileged: true,
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  sshd?.stop();
  try {
    execFileSync('userdel', ['-r', '-f', pushed], { stdio: 'ignore' });
  } catch {
    // not created
  }
});

describe('permission template accounts', () => {
  it('creates and pushes the template account on the assets of a saved permission; its user signs in with it', async () => {
    const post = apiPost(admin);
    const tpl = await post('/api/v1/accounts/account-templates/', {
      name: `tpl-push-${tag}`,
      username: pushed,
      secret_type: 'password',
      secret: 'Tpl-pass-7',
      auto_push: true,
    });
    const quiet = await post('/api/v1/accounts/account-templates/', {
      name: `tpl-kept-${tag}`,
      username: kept,
      secret_type: 'password',
      secret: 'Tpl-pass-8',
    });
    const sam = await makeUser(admin, `sam${tag}`);
    const perm = await post(PERMS, {
      name: `p-tpl-${tag}`,
      users: [sam.id],
      nodes: [host.node.id],
      accounts: [`%${tpl.id}`, `%${quiet.id}`],
    });

    await expect.poll(async () => (await templateRuns()).map(finished), { timeout: 60_000 }).toEqual([true]);
    const [run] = await templateRuns();
    const records: Json[] = (await admin.get(`/api/v1/accounts/push-account-records/?execution_id=${run!.id}`)).json();
    // Only the template that pushes is pushed; the other's account is only created.
    expect(records.map((r) => [r.account.name, r.status, r.error])).toEqual([[`tpl-push-${tag}`, 'success', '']]);
    const [account] = await accountsOf(pushed);
    expect(account).toMatchObject({ name: `tpl-push-${tag}`, username: pushed });
    const stored = await t.deps.database.db
      .selectFrom('accounts_account')
      .select(['source', 'source_id', 'secret'])
      .where('id', '=', account!.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ source: 'template', source_id: tpl.id });
    expect(stored.secret).not.toContain('Tpl-pass-7');
    expect((await accountsOf(kept)).map((a) => a.name)).toEqual([`tpl-kept-${tag}`]);
    expect(await sshLogin({ host: '127.0.0.1', port: sshd.port, username: pushed, password: 'Tpl-pass-7' })).toBe(
      undefined,
    );

    // The permission's user, through the gateway's native SSH, as the created account.
    const c = new SshClient(
      sshPort,
      `sam${tag}@${account!.name}@${host.name}`,
      { password: PASSWORD },
      {
        command: 'id -un',
      },
    );
    expect(await c.exited, c.err).toBe(0);
    expect(c.text).toContain(pushed);

    // Saving again with one more asset: only that asset lacks the accounts, the first gets none.
    const other = await linuxHost(post, sshd.port);
    const again = await admin.request({
      method: 'PATCH',
      url: `${PERMS}${perm.id}/`,
      payload: { accounts: [`%${tpl.id}`, `%${quiet.id}`], nodes: [host.node.id], assets: [other.id] },
    });
    expect(again.statusCode, again.body).toBe(200);
    await expect
      .poll(async () => (await templateRuns()).filter((r) => finished(r)).length, { timeout: 60_000 })
      .toBe(2);
    const second = (await templateRuns()).find((r) => r.id !== run!.id)!;
    expect(JSON.parse(second.job_version).assets).toEqual([other.id]);
    expect(await accountsOf(pushed)).toHaveLength(1);
    expect(await accountsOf(kept)).toHaveLength(1);
    expect(await accountsOf(kept, other.id)).toHaveLength(1);

    // An asset added through the relation route gets them too.
    const third = await linuxHost(post, sshd.port);
    await post('/api/v1/perms/asset-permissions-assets-relations/', { assetpermission: perm.id, asset: third.id });
    await expect.poll(async () => (await accountsOf(kept, third.id)).length, { timeout: 60_000 }).toBe(1);
    await expect
      .poll(async () => (await templateRuns()).filter((r) => !finished(r)).length, { timeout: 60_000 })
      .toBe(0);
  }, 120_000);
});
