import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * The `lan` scan through a domain's gateway: hosts are TCP listeners on 127.0.0.2 and 127.0.0.3,
 * and the gateway is a real sshd that forwards only to 127.0.0.3 (`PermitOpen`). Scanned from the
 * Gatehouse host both answer; through the gateway only what the gateway reaches is found, and the
 * host it finds belongs to the domain. And a strategy's `account` action (127.0.0.4): the hosts it
 * matches get the template's account, once.
 */
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let t: TestApp;
let admin: SessionClient;
let jump: SshdWithUsers;
let port = 0;
const servers: net.Server[] = [];
const C = '/api/v1/xpack/cloud';

function listen(host: string, p: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer((c) => c.destroy());
    s.once('error', reject);
    s.listen(p, host, () => resolve(s));
  });
}

beforeAll(async () => {
  servers.push(await listen('127.0.0.2', 0));
  port = (servers[0]!.address() as net.AddressInfo).port;
  servers.push(await listen('127.0.0.3', port));
  servers.push(await listen('127.0.0.4', port));
  jump = await startShellSshd({ config: [`PermitOpen 127.0.0.3:${port}`] });
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 60_000);

afterAll(async () => {
  await t?.close();
  jump?.stop();
  for (const s of servers) s.close();
});

async function post(url: string, body: unknown): Promise<Row> {
  const res = await admin.post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Runs a task of a lan account over 127.0.0.2-3 and answers its finished execution. */
async function scan(name: string, attrs: Row, taskFields: Row = {}): Promise<Row> {
  const account = await post(`${C}/accounts/`, {
    name,
    provider: 'lan',
    attrs: { ip_group: ['127.0.0.2-3'], test_port: port, test_timeout: 2, hostname_prefix: `${name}-`, ...attrs },
  });
  const task = await post(`${C}/sync-instance-tasks/`, { name, account: account.id, ...taskFields });
  return runTask(task.id);
}

async function runTask(taskId: string): Promise<Row> {
  const run = await admin.get(`${C}/sync-instance-tasks/${taskId}/run/`);
  expect(run.statusCode, run.body).toBe(200);
  const id = run.json().task as string;
  let exec: Row | undefined;
  await expect
    .poll(async () => {
      exec = ((await admin.get(`${C}/sync-instance-tasks/${taskId}/history/`)).json() as Row[]).find(
        (e) => e.id === id,
      );
      return exec?.is_finished;
    })
    .toBe(true);
  return exec!;
}

describe('a lan scan through a domain’s gateway', () => {
  it('finds only what the gateway reaches, and the host found belongs to the domain', async () => {
    const domain = await post('/api/v1/assets/domains/', { name: 'dmz' });
    const gw = await post('/api/v1/assets/gateways/', {
      name: 'dmz-jump',
      address: '127.0.0.1',
      platform: 'Gateway',
      domain: domain.id,
      protocols: [{ name: 'ssh', port: jump.port }],
    });
    await post('/api/v1/accounts/accounts/', { asset: gw.id, username: jump.username, secret: jump.password });

    const through = await scan('via', { domain: domain.id });
    expect(through).toMatchObject({ status: 'success', summary: { created: 1 } });
    const hosts = (await admin.get('/api/v1/assets/hosts/?search=via-')).json() as Row[];
    expect(hosts.map((h) => h.address)).toEqual(['127.0.0.3']);
    expect(hosts[0]!.domain).toMatchObject({ id: domain.id });

    // From the Gatehouse host itself 127.0.0.2 answers too (127.0.0.3 is known already: skipped).
    const direct = await scan('direct', {});
    expect(direct, JSON.stringify(direct.summary)).toMatchObject({ status: 'success', summary: { created: 1 } });
    const found = (await admin.get('/api/v1/assets/hosts/?search=direct-')).json() as Row[];
    expect(found.map((h) => [h.address, h.domain])).toEqual([['127.0.0.2', null]]);
  }, 90_000);

  it('fails the run with the reason when the domain has no usable gateway', async () => {
    const empty = await post('/api/v1/assets/domains/', { name: 'empty' });
    const exec = await scan('lonely', { domain: empty.id });
    expect(exec.status).toBe('failed');
    expect(exec.summary.error).toBe(
      'The domain empty has no usable gateway (an active gateway with an SSH port and an account with a secret).',
    );
    expect((await admin.get('/api/v1/assets/hosts/?search=lonely-')).json()).toEqual([]);
  }, 60_000);

  it('refuses a domain the account’s organisation does not have, naming the field', async () => {
    const res = await admin.post(`${C}/accounts/`, {
      name: 'foreign',
      provider: 'lan',
      attrs: { ip_group: ['127.0.0.2'], domain: '00000000-0000-0000-0000-00000000dead' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      'attrs.domain': ['No domain 00000000-0000-0000-0000-00000000dead in this organisation.'],
    });
  });
});

describe('a strategy’s account action', () => {
  it('gives the hosts it matches the template’s account, and nothing more on the next run', async () => {
    const template = await post('/api/v1/accounts/account-templates/', {
      name: 'deploy',
      username: 'deploy',
      secret_type: 'password',
      secret: 'Deploy-pass-1',
      privileged: true,
    });
    const strategy = await post(`${C}/strategies/`, {
      name: 'deployers',
      priority: 10,
      strategy_rules: [{ attr: 'address', match: 'equals', value: '127.0.0.4' }],
      strategy_actions: [{ attr: 'account', value: template.id }],
    });
    const first = await scan('tpl', { ip_group: ['127.0.0.4'] }, { strategies: [strategy.id] });
    expect(first, JSON.stringify(first.summary)).toMatchObject({ status: 'success', summary: { created: 1 } });
    const [host] = (await admin.get('/api/v1/assets/hosts/?search=tpl-')).json() as Row[];
    const accounts = () => admin.get(`/api/v1/accounts/accounts/?asset=${host!.id}`).then((r) => r.json() as Row[]);
    expect(await accounts()).toEqual([
      expect.objectContaining({ username: 'deploy', name: 'deploy', privileged: true, has_secret: true }),
    ]);
    const [account] = await accounts();
    expect(account!.source).toMatchObject({ value: 'template' });

    const task = ((await admin.get(`${C}/sync-instance-tasks/?search=tpl`)).json() as Row[])[0]!;
    const again = await runTask(task.id);
    expect(again.summary).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(await accounts()).toHaveLength(1);
  }, 60_000);
});

describe('releasing the assets of released instances', () => {
  it('deletes the assets kept for instances that are gone, and only those', async () => {
    const leaving = await listen('127.0.0.5', port);
    const first = await scan('rel', { ip_group: ['127.0.0.5'] }, { release_policy: 'disable' });
    expect(first.summary).toMatchObject({ created: 1 });
    const task = ((await admin.get(`${C}/sync-instance-tasks/?search=rel`)).json() as Row[])[0]!;
    const hostsNow = () => admin.get('/api/v1/assets/hosts/?search=rel-').then((r) => r.json() as Row[]);
    // Nothing released yet: nothing to delete.
    const none = await admin.request({ method: 'DELETE', url: `${C}/sync-instance-tasks/${task.id}/released-assets/` });
    expect(none.json()).toEqual({ deleted: 0 });
    expect(await hostsNow()).toHaveLength(1);

    await new Promise((closed) => leaving.close(closed));
    const second = await runTask(task.id);
    expect(second.summary).toMatchObject({ released: 1 });
    expect((await hostsNow())[0]).toMatchObject({ is_active: false });

    const res = await admin.request({ method: 'DELETE', url: `${C}/sync-instance-tasks/${task.id}/released-assets/` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: 1 });
    expect(await hostsNow()).toEqual([]);
    const instances = (await admin.get(`${C}/sync-instance-tasks/${task.id}/instances/`)).json() as Row[];
    expect(instances).toEqual([expect.objectContaining({ address: '127.0.0.5', status: 'released', asset_id: null })]);
    // The other tasks' hosts stay.
    expect((await admin.get('/api/v1/assets/hosts/?search=via-')).json()).toHaveLength(1);
  }, 60_000);
});
