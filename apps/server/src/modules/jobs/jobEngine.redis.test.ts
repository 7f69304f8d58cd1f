import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminClient,
  createPeerApp,
  createTestApp,
  type SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { makePerm, type Row } from '../../../test-support/perms.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { sshHost } from '../../../test-support/sshAsset.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * Two instances on one database and Redis share the engine's work: a schedule's tick fires once
 * whichever instance sees it first, and an instance that dies mid-execution (it stops beating) has
 * its execution marked failed by the other.
 */
const redisUrl = process.env.TEST_REDIS_URL;

/** A quick job that runs a minute on `host`: long enough to die in. */
async function sleepJob(admin: SessionClient, host: Row, account: Row): Promise<Row> {
  const res = await admin.post('/api/v1/ops/jobs/', {
    args: 'sleep 60',
    assets: [host.id],
    runas: account.username,
    instant: true,
  });
  return res.json() as Row;
}

describe.runIf(redisUrl)('the execution engine across instances (Redis)', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof createPeerApp>>;
  let sshd: SshdWithUsers;
  let host: Row;
  let account: Row;
  beforeAll(async () => {
    sshd = await startShellSshd();
    a = await createTestApp({ REDIS_URL: redisUrl!, JOB_MINUTE_MS: '1000', JOB_HEARTBEAT_MS: '300' });
    b = await createPeerApp(a);
    const admin = await adminClient(a.app);
    ({ host, password: account } = await sshHost(apiPost(admin), sshd));
    const me = (await admin.get('/api/v1/users/profile/')).json();
    await makePerm(admin, { users: [me.id], assets: [host.id], accounts: ['@ALL'], actions: ['connect'] });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    sshd?.stop();
  });

  it('fires each tick of a shared schedule once, though both instances see it', async () => {
    const admin = await adminClient(a.app);
    const job = (
      await admin.post('/api/v1/ops/jobs/', {
        name: 'shared-tick',
        args: 'echo tick',
        assets: [host.id],
        runas: account.username,
        is_periodic: true,
        crontab: '* * * * *',
      })
    ).json();
    expect(job.id).toBeDefined();
    const first = Math.floor(Date.now() / 1000);
    const executions = async () => (await admin.get(`/api/v1/ops/job-executions/?job_id=${job.id}`)).json() as Row[];
    await expect.poll(async () => (await executions()).length).toBeGreaterThanOrEqual(3);
    await admin.request({ method: 'PATCH', url: `/api/v1/ops/jobs/${job.id}/`, payload: { is_periodic: false } });
    const last = Math.floor(Date.now() / 1000) + 1;
    const claims: number[] = [];
    for (let k = first; k <= last; k++) {
      const n = await a.deps.cache.get<number>(`gh:jobs:tick:${job.id}:${k}`);
      if (n) claims.push(n);
    }
    // Both instances counted each tick they saw; one execution per tick claimed.
    expect(claims.filter((n) => n === 2).length).toBeGreaterThanOrEqual(2);
    expect((await executions()).length).toBe(claims.length);
  });

  it('marks failed, from the survivor, the execution of an instance that died while running it', async () => {
    const admin = await adminClient(a.app);
    const job = await sleepJob(admin, host, account);
    const row = async () =>
      a.deps.database.db.selectFrom('ops_jobexecution').selectAll().where('id', '=', job.task_id).executeTakeFirst();
    await expect.poll(async () => (await row())?.status).toBe('running');
    const owner = (await row())!.instance_id;
    const [dying, survivor] = a.app.jobEngine.instanceId === owner ? [a.app, b.app] : [b.app, a.app];
    expect(dying.jobEngine.instanceId).toBe(owner);
    dying.jobEngine.halt();
    await expect.poll(async () => (await row())?.status).toBe('failed');
    expect(JSON.parse((await row())!.summary).error).toContain(`(${owner}) stopped`);
    const viaSurvivor = await adminClient(survivor);
    expect((await viaSurvivor.get(`/api/v1/ops/job-execution/task-detail/${job.task_id}/`)).json()).toMatchObject({
      status: 'failed',
      is_finished: true,
    });
  });
});

describe.runIf(redisUrl)('an instance killed mid-execution (Redis)', () => {
  // The test's own instance runs no executions (JOB_EXECUTIONS=0), so the one in the child process
  // (test-support/jobInstanceRunner.ts) claims the job; `kill -9` gives it no chance to clean up.
  let t: TestApp;
  let sshd: SshdWithUsers;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    sshd = await startShellSshd();
    t = await createTestApp({ REDIS_URL: redisUrl!, JOB_HEARTBEAT_MS: '300', JOB_EXECUTIONS: '0' });
  }, 60_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await t?.close();
    sshd?.stop();
  });

  function startInstance(): Promise<string> {
    const root = path.resolve(import.meta.dirname, '../../../../..');
    const c = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'apps/server/test-support/jobInstanceRunner.ts')],
      {
        cwd: root,
        env: {
          ...process.env,
          DATA_DIR: t.dataDir,
          DATABASE_URL: t.deps.config.databaseUrl,
          REDIS_URL: redisUrl!,
          REDIS_PREFIX: t.deps.config.redisPrefix,
          JOB_HEARTBEAT_MS: '300',
          ...(t.pgSchema ? { GH_PG_SCHEMA: t.pgSchema } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child = c;
    return new Promise((resolve, reject) => {
      let out = '';
      c.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /INSTANCE (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      c.once('exit', (code) => reject(new Error(`the instance exited (${code}) before it started`)));
    });
  }

  it('has the execution the dead process was running marked failed by the survivor', async () => {
    const admin = await adminClient(t.app);
    const { host, password: account } = await sshHost(apiPost(admin), sshd);
    const me = (await admin.get('/api/v1/users/profile/')).json();
    await makePerm(admin, { users: [me.id], assets: [host.id], accounts: ['@ALL'], actions: ['connect'] });
    const doomed = await startInstance();
    const job = await sleepJob(admin, host, account);
    const row = () =>
      t.deps.database.db.selectFrom('ops_jobexecution').selectAll().where('id', '=', job.task_id).executeTakeFirst();
    await expect.poll(async () => (await row())?.status, { timeout: 30_000 }).toBe('running');
    expect((await row())!.instance_id).toBe(doomed);
    child!.kill('SIGKILL');
    await expect.poll(async () => (await row())?.status).toBe('failed');
    expect(JSON.parse((await row())!.summary).error).toContain(`(${doomed}) stopped`);
    const detail = (await admin.get(`/api/v1/ops/job-execution/task-detail/${job.task_id}/`)).json();
    expect(detail).toMatchObject({ status: 'failed', is_finished: true });
  });
});
