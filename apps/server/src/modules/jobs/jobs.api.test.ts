import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makePerm, makeUser, type Row } from '../../../test-support/perms.ts';
import { signIn } from '../../../test-support/tickets.ts';
import { commandRule } from '../../../test-support/gateway.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { startShellSshd, SHELL_USER, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { collectTaskLog } from '../../../test-support/taskLog.ts';

/**
 * The job centre against one real sshd under several asset records: quick jobs streamed into the
 * task log, run-as policies, the rules applied per asset inside the runner (grants, command filter,
 * the blacklist, the module's platform), a host that never answers, a domain gateway, schedules
 * on a shortened minute, own-only visibility and the command-execution switch.
 */
let t: TestApp;
let admin: SessionClient;
let jo: SessionClient;
let kim: SessionClient;
let sshd: SshdWithUsers;
let dead: net.Server;
let base: string;
const OPS = { username: 'opsadmin', password: 'Ops-pass-1' };
const h: Record<string, Row> = {};

beforeAll(async () => {
  sshd = await startShellSshd({ users: [SHELL_USER, { ...OPS }] });
  // A host that accepts TCP and never says a word: its SSH handshake never ends.
  dead = net.createServer(() => undefined).listen(0, '127.0.0.1');
  await new Promise((r) => dead.once('listening', r));
  t = await createTestApp({ JOB_MINUTE_MS: '1000', JOB_HEARTBEAT_MS: '500' });
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
  const post = apiPost(admin);
  const account = (asset: string, u: { username: string; password: string }, privileged = false) =>
    post(ACCOUNTS, { asset, username: u.username, secret: u.password, privileged });
  // h1: both accounts; h2: the plain one; h3: the privileged one; hdead: a host that never answers.
  for (const name of ['h1', 'h2', 'h3']) h[name] = await linuxHost(post, sshd.port, { name: `job-${name}` });
  h.hdead = await linuxHost(post, (dead.address() as net.AddressInfo).port, { name: 'job-hdead' });
  for (const name of ['h1', 'h2', 'hdead']) await account(h[name]!.id, SHELL_USER);
  for (const name of ['h1', 'h3']) await account(h[name]!.id, OPS, true);
  // h4 sits behind a domain gateway, the same sshd as the jump host.
  const domain = (await admin.post('/api/v1/assets/domains/', { name: 'job-dmz' })).json();
  const gw = await post('/api/v1/assets/gateways/', {
    name: 'job-jump',
    address: '127.0.0.1',
    platform: 'Gateway',
    domain: domain.id,
    protocols: [{ name: 'ssh', port: sshd.port }],
  });
  await account(gw.id, SHELL_USER);
  h.gw = gw;
  h.h4 = await linuxHost(post, sshd.port, { name: 'job-h4', domain: domain.id });
  h.db = await post('/api/v1/assets/databases/', {
    name: 'job-db',
    address: '127.0.0.1',
    platform: 'MySQL',
    db_name: 'shop',
    protocols: [{ name: 'mysql', port: 3306 }],
  });
  await account(h.db!.id, SHELL_USER);
  await account(h.h4!.id, SHELL_USER);
  const joUser = await makeUser(admin, 'jo');
  await makeUser(admin, 'kim');
  await makePerm(admin, {
    users: [joUser.id],
    assets: Object.values(h).map((x) => x.id),
    accounts: ['@ALL'],
    actions: ['connect'],
  });
  jo = await signIn(t, 'jo');
  kim = await signIn(t, 'kim');
}, 60_000);
afterAll(async () => {
  await t?.close();
  dead?.close();
  sshd?.stop();
});

const quick = async (c: SessionClient, body: Row) => {
  const res = await c.post('/api/v1/ops/jobs/', {
    module: 'shell',
    runas: SHELL_USER.username,
    runas_policy: 'skip',
    instant: true,
    is_periodic: false,
    timeout: 30,
    nodes: [],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().task_id).toMatch(/^[0-9a-f-]{36}$/);
  return res.json() as Row;
};

const finished = async (c: SessionClient, taskId: string) => {
  await expect
    .poll(async () => (await c.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json().is_finished)
    .toBe(true);
  return (await c.get(`/api/v1/ops/job-execution/task-detail/${taskId}/`)).json() as Row;
};

const byAsset = async (c: SessionClient, taskId: string): Promise<Record<string, Row>> => {
  const rows = (await c.get(`/api/v1/ops/job-execution/asset-detail/?execution_id=${taskId}`)).json() as Row[];
  return Object.fromEntries(rows.map((r) => [r.asset.name.split('(')[0], r]));
};

describe('quick jobs', () => {
  it('runs a command over several assets, streams each host’s lines into the task log, and records each', async () => {
    const job = await quick(jo, { assets: [h.h1!.id, h.h2!.id, h.h4!.id], args: 'echo out-$((6*7)); echo $USER' });
    const log = await collectTaskLog(
      base,
      { cookie: `${SESSION_COOKIE}=${jo.jar.values.get(SESSION_COOKIE)}` },
      job.task_id,
      20_000,
    );
    const text = log.messages.map((m) => m.message ?? '').join('');
    for (const name of ['job-h1', 'job-h2', 'job-h4']) expect(text).toContain(`[${name}(127.0.0.1)] out-42`);
    expect(text).toContain('ok: 3');
    expect(log.messages.at(-1)?.event).toBe('end');
    const detail = await finished(jo, job.task_id);
    expect(detail).toMatchObject({ status: 'success', is_success: true, job_id: job.id });
    const rows = await byAsset(jo, job.task_id);
    expect(rows['job-h4']).toMatchObject({ status: 'ok', output: 'out-42\nshelluser\n' });
    // h4 was reached through its domain's gateway: the jump host's key is on record.
    const keys = await t.deps.database.db.selectFrom('terminal_hostkey').select('asset_id').execute();
    expect(keys.map((k) => k.asset_id)).toContain(h.gw!.id);
    // The polling tail reads the same log.
    const tail = (await jo.get(`/api/v1/ops/ansible/job-execution/${job.task_id}/log/?mark=0`)).json();
    expect(tail.data).toContain('out-42\r\n');
    // Quick jobs stay out of the job list, and are read by id.
    expect((await jo.get('/api/v1/ops/jobs/')).json().map((j: Row) => j.id)).not.toContain(job.id);
    expect((await jo.get(`/api/v1/ops/jobs/${job.id}/`)).json()).toMatchObject({ instant: true, asset_amount: 3 });
  });

  it('takes its assets from nodes through the user’s grants: favourites, a node', async () => {
    expect((await jo.post('/api/v1/assets/favorite-assets/', { asset: h.h2!.id })).statusCode).toBe(201);
    const fav = await quick(jo, { assets: [], nodes: ['favorite'], args: 'echo fav' });
    expect(fav.assets).toEqual([h.h2!.id]);
    await finished(jo, fav.task_id);
    expect(Object.keys(await byAsset(jo, fav.task_id))).toEqual(['job-h2']);
    // A node holding a granted asset and one that is not granted to jo.
    const node = (await admin.post('/api/v1/assets/nodes/', { full_value: '/Default/job-node' })).json();
    const stranger = await linuxHost(apiPost(admin), sshd.port, { name: 'job-stranger', nodes: [node.id] });
    await admin.request({ method: 'PATCH', url: `/api/v1/assets/hosts/${h.h3!.id}/`, payload: { nodes: [node.id] } });
    const byNode = await quick(jo, {
      assets: [],
      nodes: [node.id],
      args: 'echo node',
      runas_policy: 'privileged_first',
    });
    expect(byNode.assets).toEqual([h.h3!.id]);
    expect(byNode.assets).not.toContain(stranger.id);
  });

  it('picks the account by run-as and its policy on each asset', async () => {
    const assets = [h.h1!.id, h.h2!.id, h.h3!.id];
    const users = async (runas: string, runas_policy: string) => {
      const job = await quick(jo, { assets, args: 'echo $USER', runas, runas_policy });
      await finished(jo, job.task_id);
      const rows = await byAsset(jo, job.task_id);
      return Object.fromEntries(
        Object.entries(rows).map(([k, r]) => [k, r.status === 'ok' ? r.output.trim() : r.status]),
      );
    };
    expect(await users(SHELL_USER.username, 'skip')).toEqual({
      'job-h1': 'shelluser',
      'job-h2': 'shelluser',
      'job-h3': 'skipped',
    });
    expect(await users('nobody', 'privileged_only')).toEqual({
      'job-h1': 'opsadmin',
      'job-h2': 'skipped',
      'job-h3': 'opsadmin',
    });
    expect(await users('nobody', 'privileged_first')).toEqual({
      'job-h1': 'opsadmin',
      'job-h2': 'shelluser',
      'job-h3': 'opsadmin',
    });
  });

  it('refuses a command on the one asset a command filter rule rejects it on, naming the rule', async () => {
    await commandRule(admin, h.h2!.id, 'no-touch-on-h2', 'touch');
    const job = await quick(jo, { assets: [h.h1!.id, h.h2!.id], args: 'touch /tmp/gh-job-$$ && echo touched' });
    expect((await finished(jo, job.task_id)).status).toBe('failed');
    const rows = await byAsset(jo, job.task_id);
    expect(rows['job-h1']).toMatchObject({ status: 'ok', output: 'touched\n' });
    expect(rows['job-h2']!.status).toBe('failed');
    expect(rows['job-h2']!.reason).toContain('no-touch-on-h2');
    // A review rule opens a command-confirm ticket, as in the terminal: that asset waits for the
    // answer (the other runs meanwhile), runs once approved and is refused once rejected.
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    await commandRule(admin, h.h1!.id, 'review-uname-on-h1', 'uname', 'review', [adminId]);
    const C = '/api/v1/tickets/apply-command-tickets';
    const ticketFor = async (command: string) => {
      let found: Row | undefined;
      await expect
        .poll(async () => {
          const open = (await admin.get(`${C}/?status=open`)).json() as Row[];
          found = open.find((x) => x.apply_run_command === command);
          return Boolean(found);
        })
        .toBe(true);
      return found!;
    };
    const held = await quick(jo, { assets: [h.h1!.id, h.h2!.id], args: 'uname -s' });
    const tk = await ticketFor('uname -s');
    expect(tk).toMatchObject({
      apply_run_asset: expect.stringContaining('job-h1'),
      apply_from_session: { id: held.task_id },
    });
    const waiting = (await jo.get(`/api/v1/ops/ansible/job-execution/${held.task_id}/log/`)).json().data as string;
    expect(waiting).toContain('needs a review by the rule "review-uname-on-h1"');
    expect((await admin.request({ method: 'PUT', url: `${C}/${tk.id}/approve/`, payload: {} })).statusCode).toBe(200);
    await finished(jo, held.task_id);
    const heldRows = await byAsset(jo, held.task_id);
    expect(heldRows['job-h1']).toMatchObject({ status: 'ok', output: 'Linux\n' });
    expect(heldRows['job-h2']).toMatchObject({ status: 'ok', output: 'Linux\n' });
    const denied = await quick(jo, { assets: [h.h1!.id], args: 'uname -s' });
    const tk2 = await ticketFor('uname -s');
    expect((await admin.request({ method: 'PUT', url: `${C}/${tk2.id}/reject/`, payload: {} })).statusCode).toBe(200);
    await finished(jo, denied.task_id);
    expect((await byAsset(jo, denied.task_id))['job-h1']!.reason).toMatch(/not approved.*review-uname-on-h1/);
  });

  it('refuses what SECURITY_COMMAND_BLACKLIST lists, and modules the asset’s platform cannot run', async () => {
    const job = await quick(jo, { assets: [h.h1!.id], args: 'echo bye; reboot' });
    expect((await finished(jo, job.task_id)).status).toBe('failed');
    expect((await byAsset(jo, job.task_id))['job-h1']!.reason).toContain('reboot');
    const win = await quick(jo, { assets: [h.h1!.id], args: 'Get-Date', module: 'win_shell' });
    await finished(jo, win.task_id);
    expect((await byAsset(jo, win.task_id))['job-h1']!.reason).toContain('needs a Windows host');
    const py = await quick(jo, { assets: [h.h1!.id], args: 'print(1)', module: 'python' });
    await finished(jo, py.task_id);
    // python runs through the Ansible runner (ops/ansible/), as a script on the asset.
    expect((await byAsset(jo, py.task_id))['job-h1']).toMatchObject({ status: 'ok' });
    expect((await byAsset(jo, py.task_id))['job-h1']!.output).toContain('1');
    // A database module fits the database and no host; shell fits the host and not the database.
    const sqlJob = await quick(jo, { assets: [h.h1!.id, h.db!.id], args: 'select 1', module: 'mysql' });
    await finished(jo, sqlJob.task_id);
    const sql = await byAsset(jo, sqlJob.task_id);
    // The database runner signs in with the account (databaseJobs.api.test.ts): this one is no MariaDB user.
    expect(sql['job-db']).toMatchObject({ status: 'failed', reason: expect.stringContaining('Access denied') });
    expect(sql['job-h1']!.reason).toContain('needs a MySQL database');
    const shellJob = await quick(jo, { assets: [h.h1!.id, h.db!.id], args: 'echo on-host' });
    await finished(jo, shellJob.task_id);
    const shell = await byAsset(jo, shellJob.task_id);
    expect(shell['job-h1']).toMatchObject({ status: 'ok', output: 'on-host\n' });
    expect(shell['job-db']!.reason).toContain('needs a Linux or Unix host');
  });

  it('ends a host that never answers as timeout, that host only', async () => {
    const job = await quick(jo, { assets: [h.h1!.id, h.hdead!.id], args: 'echo alive', timeout: 2 });
    expect((await finished(jo, job.task_id)).status).toBe('timeout');
    const rows = await byAsset(jo, job.task_id);
    expect(rows['job-h1']).toMatchObject({ status: 'ok', output: 'alive\n' });
    expect(rows['job-hdead']).toMatchObject({ status: 'timeout' });
  });
});

describe('saved and periodic jobs', () => {
  it('runs a saved job with parameters through job-executions, and filters its history', async () => {
    const job = (
      await jo.post('/api/v1/ops/jobs/', {
        name: 'greet',
        args: 'echo hello-{{ who }}',
        assets: [h.h1!.id],
        runas: SHELL_USER.username,
        use_parameter_define: true,
        parameters_define: { who: { default: 'world' } },
      })
    ).json();
    expect(job.task_id).toBeNull();
    const run = await jo.post('/api/v1/ops/job-executions/', { job: job.id, parameters: { who: 'jo' } });
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json().task_id).toBe(run.json().id);
    await finished(jo, run.json().task_id);
    expect((await byAsset(jo, run.json().task_id))['job-h1']!.output).toBe('hello-jo\n');
    const history = (await jo.get(`/api/v1/ops/job-executions/?job_id=${job.id}&status=success`)).json();
    expect(history.map((e: Row) => e.id)).toEqual([run.json().id]);
    const edit = await jo.request({
      method: 'PATCH',
      url: `/api/v1/ops/job-executions/${run.json().id}/`,
      payload: { parameters: { who: 'someone-else' } },
    });
    expect(edit.statusCode).toBe(405);
    expect((await jo.get(`/api/v1/ops/jobs/${job.id}/`)).json().summary).toEqual({ total: 1, success: 1 });
  });

  it('runs a playbook job with Ansible: the playbook written in its file browser, its lines streamed', async () => {
    const pb = (await jo.post('/api/v1/ops/playbooks/', { name: 'hello-pb' })).json();
    expect(pb.id).toBeTruthy();
    const main = [
      '- hosts: all',
      '  gather_facts: false',
      '  tasks:',
      '    - name: say hello',
      '      ansible.builtin.command: echo playbook-says-hello',
      '',
    ].join('\n');
    const saved = await jo.request({
      method: 'PATCH',
      url: `/api/v1/ops/playbook/${pb.id}/file/`,
      payload: { key: 'main.yml', content: main },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // A playbook job needs its playbook (the creator's own): refused without it, nothing saved.
    const none = await jo.post('/api/v1/ops/jobs/', {
      type: 'playbook',
      assets: [h.h1!.id],
      runas: SHELL_USER.username,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().playbook[0]).toMatch(/playbook/i);
    const job = await quick(jo, { type: 'playbook', playbook: pb.id, args: '', assets: [h.h1!.id] });
    const detail = await finished(jo, job.task_id);
    const host = (await byAsset(jo, job.task_id))['job-h1']!;
    expect(detail.status, JSON.stringify(host)).toBe('success');
    expect(host.output).toContain('playbook-says-hello');
    const log = (await jo.get(`/api/v1/ops/ansible/job-execution/${job.task_id}/log/`)).json();
    expect(log.data).toContain('playbook-says-hello');
    expect((await jo.get(`/api/v1/ops/jobs/?type=playbook`)).json()).toEqual([]);
    // A playbook a job runs cannot be deleted from under it.
    const gone = await jo.request({ method: 'DELETE', url: `/api/v1/ops/playbooks/${pb.id}/` });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().code).toBe('referenced');
  }, 60_000);

  it('runs Ansible on a host only with its trusted host key: a changed key refuses it before anything runs', async () => {
    const py = "print('py-' + str(6 * 7))";
    const first = await quick(jo, { module: 'python', args: py, assets: [h.h2!.id, h.h4!.id] });
    const firstRun = await finished(jo, first.task_id);
    expect(firstRun.status, JSON.stringify(await byAsset(jo, first.task_id))).toBe('success');
    // The key on record for h2 is not the one its sshd offers (as if the host had been replaced).
    const db = t.deps.database.db;
    await db
      .updateTable('terminal_hostkey')
      .set({ fingerprint: 'SHA256:somebody-else' })
      .where('asset_id', '=', h.h2!.id)
      .execute();
    const second = await quick(jo, { module: 'python', args: py, assets: [h.h2!.id, h.h4!.id] });
    await finished(jo, second.task_id);
    const rows = await byAsset(jo, second.task_id);
    expect(rows['job-h2']).toMatchObject({ status: 'failed', reason: expect.stringContaining('has changed') });
    expect(rows['job-h2']!.output).not.toContain('py-42');
    expect(rows['job-h4']).toMatchObject({ status: 'ok', output: expect.stringContaining('py-42') });
  }, 60_000);

  it('fires a periodic job on its crontab (a minute shortened to a second)', async () => {
    const res = await jo.post('/api/v1/ops/jobs/', {
      name: 'every-minute',
      args: 'echo tick',
      assets: [h.h1!.id],
      runas: SHELL_USER.username,
      is_periodic: true,
      crontab: '* * * * *',
    });
    expect(res.statusCode, res.body).toBe(201);
    await expect
      .poll(
        async () =>
          (await jo.get(`/api/v1/ops/job-executions/?job_id=${res.json().id}&is_finished=true`)).json().length,
      )
      .toBeGreaterThanOrEqual(2);
    await jo.request({ method: 'PATCH', url: `/api/v1/ops/jobs/${res.json().id}/`, payload: { is_periodic: false } });
  });

  it('previews a crontab’s next runs and refuses six fields in the user’s language', async () => {
    const ok = (await jo.get('/api/v1/ops/crontab/preview/?crontab=0%202%20*%20*%20*')).json();
    expect(ok.next_runs).toHaveLength(5);
    const six = await jo.post('/api/v1/ops/jobs/', {
      name: 'six',
      args: 'date',
      assets: [h.h1!.id],
      runas: SHELL_USER.username,
      is_periodic: true,
      crontab: '0 0 2 * * *',
    });
    expect(six.statusCode).toBe(400);
    expect(six.json().crontab[0]).toContain('exactly 5 fields');
    const zh = await jo.post(
      '/api/v1/ops/jobs/',
      { name: 'six', args: 'date', assets: [h.h1!.id], crontab: '0 0 2 * * *' },
      { 'accept-language': 'zh-CN', cookie: `${jo.jar.header()}; django_language=zh-hans` },
    );
    expect(zh.json().crontab[0]).toContain('5 段');
  });
});

describe('executions left running by an instance that is gone', () => {
  it('are marked failed by the running instance (as at start-up after a crash)', async () => {
    const db = t.deps.database.db;
    const job = await quick(jo, { assets: [h.h1!.id], args: 'true' });
    await finished(jo, job.task_id);
    const orphan = randomUUID();
    const row = await db
      .selectFrom('ops_jobexecution')
      .selectAll()
      .where('id', '=', job.task_id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('ops_jobexecution')
      .values({ ...row, id: orphan, status: 'running', is_finished: false, instance_id: 'crashed-instance' })
      .execute();
    await expect
      .poll(async () => (await jo.get(`/api/v1/ops/job-execution/task-detail/${orphan}/`)).json().status)
      .toBe('failed');
  });
});

describe('validation, visibility and the switch', () => {
  it('refuses a job over no asset, with no matching run-as account, or an unknown module, saving nothing', async () => {
    const before = (await jo.get('/api/v1/ops/jobs/')).json().length;
    const none = await jo.post('/api/v1/ops/jobs/', { name: 'x', args: 'date', assets: [], instant: true });
    expect(none.json().assets[0]).toContain('at least one asset');
    const notMine = await kim.post('/api/v1/ops/jobs/', { name: 'x', args: 'date', assets: [h.h1!.id] });
    expect(notMine.json().assets[0]).toContain('at least one asset');
    const nobody = await jo.post('/api/v1/ops/jobs/', {
      name: 'x',
      args: 'date',
      assets: [h.h2!.id],
      runas: 'nobody',
      runas_policy: 'privileged_only',
    });
    expect(nobody.json().runas[0]).toContain('No account granted to you matches');
    const bad = await jo.post('/api/v1/ops/jobs/', { name: 'x', args: 'date', assets: [h.h1!.id], module: 'bash' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['module']);
    const interval = await jo.post('/api/v1/ops/jobs/', {
      name: 'x',
      args: 'date',
      assets: [h.h1!.id],
      runas: SHELL_USER.username,
      is_periodic: true,
      interval: 0,
    });
    expect(interval.json().interval[0]).toContain('greater than 0');
    expect((await jo.get('/api/v1/ops/jobs/')).json().length).toBe(before);
  });

  it('shows each user only their own jobs, executions and saved commands', async () => {
    const job = await quick(jo, { assets: [h.h1!.id], args: 'true' });
    await finished(jo, job.task_id);
    expect((await jo.post('/api/v1/ops/adhocs/', { name: 'uptime', args: 'uptime' })).statusCode).toBe(201);
    expect((await kim.get(`/api/v1/ops/jobs/${job.id}/`)).statusCode).toBe(404);
    expect((await kim.get(`/api/v1/ops/job-executions/${job.task_id}/`)).statusCode).toBe(404);
    expect((await kim.get(`/api/v1/ops/job-execution/task-detail/${job.task_id}/`)).statusCode).toBe(404);
    expect((await kim.get(`/api/v1/ops/ansible/job-execution/${job.task_id}/log/`)).statusCode).toBe(404);
    expect((await kim.get('/api/v1/ops/job-executions/')).json()).toEqual([]);
    expect((await kim.get('/api/v1/ops/adhocs/')).json()).toEqual([]);
    expect((await kim.post('/api/v1/ops/job-executions/', { job: job.id })).statusCode).toBe(400);
    // The auditors' job logs see every user's executions of the org.
    const logs = (await admin.get('/api/v1/audits/job-logs/')).json();
    expect(logs.map((l: Row) => l.task_id)).toContain(job.task_id);
    const board = (await admin.get('/api/v1/index/?total_count_job_logs=1&total_count_job_logs_failed=1')).json();
    expect(board.total_count_job_logs).toBeGreaterThan(board.total_count_job_logs_failed);
    expect(board.total_count_job_logs_failed).toBeGreaterThan(0);
  });

  it('hints the run-as usernames of the user’s granted accounts', async () => {
    const hints = (
      await jo.post('/api/v1/ops/username-hints/', { assets: [h.h1!.id, h.h2!.id, h.h3!.id], nodes: [], query: '' })
    ).json();
    expect(hints).toEqual([
      { username: 'opsadmin', total: 2 },
      { username: 'shelluser', total: 2 },
    ]);
    expect((await kim.post('/api/v1/ops/username-hints/', { assets: [h.h1!.id], query: '' })).json()).toEqual([]);
  });

  it('answers 403 on the whole job centre while SECURITY_COMMAND_EXECUTION is off', async () => {
    const off = await admin.request({
      method: 'PATCH',
      url: '/api/v1/settings/setting/?category=ops',
      payload: { SECURITY_COMMAND_EXECUTION: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    try {
      for (const url of ['/api/v1/ops/jobs/', '/api/v1/ops/job-executions/', '/api/v1/ops/adhocs/']) {
        const res = await jo.get(url);
        expect(res.statusCode).toBe(403);
        expect(res.json().detail).toBe('Command execution disabled');
      }
      expect((await jo.post('/api/v1/ops/jobs/', { args: 'date', assets: [h.h1!.id] })).statusCode).toBe(403);
    } finally {
      await admin.request({
        method: 'PATCH',
        url: '/api/v1/settings/setting/?category=ops',
        payload: { SECURITY_COMMAND_EXECUTION: true },
      });
    }
  });
});
