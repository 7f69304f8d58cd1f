import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { collectTaskLog } from '../../../test-support/taskLog.ts';

/**
 * Cloud sync end to end with the `lan` provider: the "hosts" are TCP listeners the test starts on
 * loopback addresses (127.0.0.2-4; 127.0.0.5-6 answer nothing). Loopback addresses rather than
 * network namespaces: the probe is a TCP connect either way, and namespaces need root, veth pairs
 * and clean-up that make the test slow and fragile on a shared machine (docs/cloud.md).
 * Runs go through the job engine (a shortened minute fires the periodic task).
 */
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let t: TestApp;
let admin: SessionClient;
let base: string;
let port = 0;
const hosts = new Map<string, net.Server>();
const C = '/api/v1/xpack/cloud';

function listen(host: string, p: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer((c) => c.destroy());
    s.once('error', reject);
    s.listen(p, host, () => resolve(s));
  });
}

beforeAll(async () => {
  const first = await listen('127.0.0.2', 0);
  port = (first.address() as net.AddressInfo).port;
  hosts.set('127.0.0.2', first);
  for (const h of ['127.0.0.3', '127.0.0.4']) hosts.set(h, await listen(h, port));
  t = await createTestApp({ JOB_MINUTE_MS: '1000', JOB_HEARTBEAT_MS: '500' });
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
}, 60_000);

afterAll(async () => {
  await t?.close();
  for (const s of hosts.values()) s.close();
});

async function runToEnd(taskId: string): Promise<{ exec: Row; records: Row[]; log: string }> {
  const run = await admin.get(`${C}/sync-instance-tasks/${taskId}/run/`);
  expect(run.statusCode, run.body).toBe(200);
  const id = run.json().task as string;
  const log = await collectTaskLog(
    base,
    { cookie: `${SESSION_COOKIE}=${admin.jar.values.get(SESSION_COOKIE)}` },
    id,
    30_000,
  );
  let exec: Row | undefined;
  await expect
    .poll(async () => {
      exec = ((await admin.get(`${C}/sync-instance-tasks/${taskId}/history/`)).json() as Row[]).find(
        (e) => e.id === id,
      );
      return exec?.is_finished;
    })
    .toBe(true);
  const records = (await admin.get(`${C}/sync-instance-tasks/${taskId}/history/${id}/`)).json() as Row[];
  return { exec: exec!, records, log: log.messages.map((m) => m.message ?? '').join('') };
}

const actions = (records: Row[]) => Object.fromEntries(records.map((r) => [r.address, r.action]));

async function lanAccount(name: string, ipGroup: string[]): Promise<Row> {
  const res = await admin.post(`${C}/accounts/`, {
    name,
    provider: 'lan',
    attrs: { ip_group: ipGroup, test_port: port, test_timeout: 1, hostname_prefix: 'lan-' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('lan provider through the job engine', () => {
  let task: Row;
  let node: Row;

  it('imports the answering hosts into the task’s node, with a strategy’s label, streamed in the task log', async () => {
    const account = await lanAccount('office', ['127.0.0.2-6']);
    expect(account.attrs).toMatchObject({ ip_group: ['127.0.0.2-6'], test_port: port });
    const test = await admin.get(`${C}/accounts/${account.id}/test-connective/`);
    expect(test.statusCode, test.body).toBe(200);
    expect((await admin.get(`${C}/regions/?account_id=${account.id}`)).json()).toEqual({ regions: ['lan'] });
    node = (await admin.post('/api/v1/assets/nodes/', { value: 'Office LAN' })).json();
    const strategy = await admin.post(`${C}/strategies/`, {
      name: 'first host is prod',
      priority: 10,
      strategy_rules: [{ attr: 'address', match: 'equals', value: '127.0.0.2' }],
      strategy_actions: [{ attr: 'label', value: 'env:prod' }],
    });
    expect(strategy.statusCode, strategy.body).toBe(201);
    const created = await admin.post(`${C}/sync-instance-tasks/`, {
      name: 'office scan',
      account: account.id,
      nodes: [node.id],
      protocols: [`ssh/${port}`],
      strategies: [strategy.json().id],
      release_policy: 'disable',
    });
    expect(created.statusCode, created.body).toBe(201);
    task = created.json();
    const { exec, records, log } = await runToEnd(task.id);
    expect(exec).toMatchObject({ status: 'success', summary: { created: 3, unchanged: 0 } });
    expect(actions(records)).toEqual({ '127.0.0.2': 'created', '127.0.0.3': 'created', '127.0.0.4': 'created' });
    expect(log).toContain('[lan-127.0.0.3(127.0.0.3)] created');
    const assets = (await admin.get(`/api/v1/assets/hosts/?node_id=${node.id}`)).json() as Row[];
    expect(assets.map((a) => a.name).sort()).toEqual(['lan-127.0.0.2', 'lan-127.0.0.3', 'lan-127.0.0.4']);
    const first = assets.find((a) => a.address === '127.0.0.2')!;
    expect(first.protocols).toEqual([expect.objectContaining({ name: 'ssh', port })]);
    expect(first.labels.map((l: Row) => `${l.name}:${l.value}`)).toEqual(['env:prod']);
  }, 60_000);

  it('changes nothing the second time', async () => {
    const before = (await admin.get('/api/v1/assets/hosts/')).json().length;
    const { exec, records } = await runToEnd(task.id);
    expect(exec.summary).toMatchObject({ created: 0, updated: 0, unchanged: 3, released: 0 });
    expect(new Set(records.map((r) => r.action))).toEqual(new Set(['unchanged']));
    expect((await admin.get('/api/v1/assets/hosts/')).json().length).toBe(before);
  }, 60_000);

  it('disables the asset of a host that stopped answering, and brings it back when it answers again', async () => {
    hosts.get('127.0.0.4')!.close();
    hosts.delete('127.0.0.4');
    const { exec, records } = await runToEnd(task.id);
    expect(exec.summary).toMatchObject({ unchanged: 2, released: 1 });
    expect(actions(records)['127.0.0.4']).toBe('released');
    const gone = (await admin.get('/api/v1/assets/hosts/?name=lan-127.0.0.4')).json()[0];
    expect(gone.is_active).toBe(false);
    const instances = (await admin.get(`${C}/sync-instance-tasks/${task.id}/instances/`)).json() as Row[];
    expect(instances.find((i) => i.address === '127.0.0.4')?.status).toBe('released');
    hosts.set('127.0.0.4', await listen('127.0.0.4', port));
    const back = await runToEnd(task.id);
    expect(actions(back.records)['127.0.0.4']).toBe('updated');
    expect((await admin.get('/api/v1/assets/hosts/?name=lan-127.0.0.4')).json()[0].is_active).toBe(true);
  }, 60_000);

  it('skips an address another account already imported, naming the asset', async () => {
    const other = await lanAccount('office again', ['127.0.0.2']);
    const dup = (
      await admin.post(`${C}/sync-instance-tasks/`, { name: 'dup scan', account: other.id, hostname_strategy: 'ip' })
    ).json();
    const { exec, records } = await runToEnd(dup.id);
    expect(exec.summary).toMatchObject({ created: 0, skipped: 1 });
    expect(records[0]).toMatchObject({
      action: 'skipped',
      reason: 'address 127.0.0.2 is already the asset lan-127.0.0.2',
    });
  }, 60_000);

  it('fires a periodic task (a minute shortened to a second)', async () => {
    await admin.request({
      method: 'PATCH',
      url: `${C}/sync-instance-tasks/${task.id}/`,
      payload: { is_periodic: true, crontab: '* * * * *' },
    });
    await expect
      .poll(
        async () =>
          ((await admin.get(`${C}/sync-instance-tasks/${task.id}/history/`)).json() as Row[]).filter(
            (e) => e.trigger === 'schedule' && e.is_finished,
          ).length,
        { timeout: 20_000 },
      )
      .toBeGreaterThanOrEqual(1);
    await admin.request({
      method: 'PATCH',
      url: `${C}/sync-instance-tasks/${task.id}/`,
      payload: { is_periodic: false },
    });
  }, 30_000);
});

describe('bad input', () => {
  it('refuses a /8, a garbage entry and a bad port with the bound stated, in the user’s language', async () => {
    const big = await admin.post(`${C}/accounts/`, {
      name: 'big',
      provider: 'lan',
      attrs: { ip_group: ['10.0.0.0/8'] },
    });
    expect(big.statusCode).toBe(400);
    expect(big.json()['attrs.ip_group'][0]).toContain('4096');
    const zh = await admin.post(
      `${C}/accounts/`,
      { name: 'big', provider: 'lan', attrs: { ip_group: ['10.0.0.0/8'] } },
      { 'accept-language': 'zh-CN' },
    );
    expect(zh.json()['attrs.ip_group'][0]).toContain('最多包含 4096 个地址');
    const junk = await admin.post(`${C}/accounts/`, {
      name: 'junk',
      provider: 'lan',
      attrs: { ip_group: ['10.0.0.1; rm -rf /'] },
    });
    expect(junk.json()['attrs.ip_group'][0]).toBe('Not an IPv4 address, CIDR or range: 10.0.0.1; rm -rf /');
    const badPort = await admin.post(`${C}/accounts/`, {
      name: 'p',
      provider: 'lan',
      attrs: { ip_group: ['10.0.0.1'], test_port: 0 },
    });
    expect(badPort.json()['attrs.test_port']).toBeDefined();
    const unknown = await admin.post(`${C}/accounts/`, { name: 'x', provider: 'nimbus', attrs: {} });
    expect(unknown.statusCode).toBe(400);
    expect((await admin.get(`${C}/accounts/?name=big`)).json()).toHaveLength(0);
  });

  it('refuses strategies with a runaway or broken pattern', async () => {
    const res = await admin.post(`${C}/strategies/`, {
      name: 'slow',
      strategy_rules: [{ attr: 'name', match: 'regex', value: '(a+)+$' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().strategy_rules[0]).toBe('Rule 1: the pattern may run too long: (a+)+$');
  });

  it('fails a run over an unknown region with its name, creating nothing', async () => {
    const account = await lanAccount('regions', ['127.0.0.3']);
    const task = (
      await admin.post(`${C}/sync-instance-tasks/`, { name: 'mars', account: account.id, regions: ['lan', 'mars-1'] })
    ).json();
    const before = (await admin.get('/api/v1/assets/hosts/')).json().length;
    const { exec, log } = await runToEnd(task.id);
    // In the language of the task's runner (the test admin reads Chinese).
    expect(exec).toMatchObject({ status: 'failed', is_success: false, summary: { error: '未知地域：mars-1' } });
    expect(log).toContain('未知地域：mars-1');
    expect((await admin.get('/api/v1/assets/hosts/')).json().length).toBe(before);
  }, 60_000);

  it('refuses a bad crontab, an unknown node and a protocol without a port', async () => {
    const account = (await admin.get(`${C}/accounts/?name=office`)).json()[0];
    const res = await admin.post(`${C}/sync-instance-tasks/`, {
      name: 'bad',
      account: account.id,
      crontab: '* * *',
      nodes: ['no-such-node'],
      protocols: ['ssh'],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['crontab', 'nodes', 'protocols']);
  });
});

describe('secrets', () => {
  it('seals an account’s secret, never answers it, and keeps it when an update leaves it out', async () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const res = await admin.post(`${C}/accounts/`, {
      name: 'aws',
      provider: 'aws_international',
      attrs: { access_key_id: 'AKIAIOSFODNN7EXAMPLE', access_key_secret: secret },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toContain(secret);
    expect(res.json().attrs).toEqual({ access_key_id: 'AKIAIOSFODNN7EXAMPLE' });
    const row = await t.deps.database.db
      .selectFrom('cloud_account')
      .selectAll()
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row.secret.startsWith('gh1$')).toBe(true);
    expect(row.secret + row.attrs).not.toContain(secret);
    const patched = await admin.request({
      method: 'PATCH',
      url: `${C}/accounts/${res.json().id}/`,
      payload: { attrs: { access_key_id: 'AKIAIOSFODNN7EXAMPLF' } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await t.deps.database.db
      .selectFrom('cloud_account')
      .selectAll()
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(t.deps.secretBox.decrypt(after.secret))).toEqual({ access_key_secret: secret });
    expect((await admin.get(`${C}/accounts/${res.json().id}/`)).body).not.toContain(secret);
    const missing = await admin.post(`${C}/accounts/`, {
      name: 'aws2',
      provider: 'aws_international',
      attrs: { access_key_id: 'AKIAIOSFODNN7EXAMPLE' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()['attrs.access_key_secret']).toBeDefined();
  });
});

describe('the licence', () => {
  it('hides every cloud route without a valid licence', async () => {
    const saved = await t.deps.settings.getRaw<string>('LICENSE');
    await t.deps.settings.set('LICENSE', 'GATEHOUSE-LICENSE-1.forged.sig', 'license');
    try {
      const res = await admin.get(`${C}/accounts/`);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('licence');
    } finally {
      await t.deps.settings.set('LICENSE', saved!, 'license');
    }
    expect((await admin.get(`${C}/accounts/`)).statusCode).toBe(200);
  });
});
