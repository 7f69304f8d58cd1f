import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { runRetention } from '../ops/retention.ts';

/**
 * `CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS` (the clean settings): the daily clean-up removes finished
 * cloud sync executions older than it with their per-instance records; newer ones, running ones and
 * other jobs' executions stay, and the task's history shows what is left. 0 keeps everything.
 */
let t: TestApp;
let admin: SessionClient;
const C = '/api/v1/xpack/cloud';
const DAY = 86400_000;
const NOW = new Date();
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => {
  await t?.close();
});

async function execution(taskId: string, days: number, o: { jobType?: string; finished?: boolean } = {}) {
  const id = randomUUID();
  const db = t.deps.database.db;
  const finished = o.finished ?? true;
  await db
    .insertInto('ops_jobexecution')
    .values({
      id,
      job_id: taskId,
      status: finished ? 'success' : 'running',
      trigger: 'schedule',
      parameters: '{}',
      material: 'cloud sync',
      job_type: o.jobType ?? 'cloud_sync',
      job_version: '{}',
      summary: '{}',
      instance_id: null,
      is_finished: finished,
      is_success: finished,
      time_cost: 1,
      creator_id: '',
      created_by: 'test',
      date_created: ago(days),
      date_start: ago(days),
      date_finished: finished ? ago(days) : null,
      org_id: DEFAULT_ORG_ID,
    })
    .execute();
  for (const address of ['10.9.0.1', '10.9.0.2'])
    await db
      .insertInto('cloud_syncrecord')
      .values({
        id: randomUUID(),
        execution_id: id,
        task_id: taskId,
        instance_id: address,
        name: address,
        address,
        action: 'unchanged',
        reason: '',
        date_created: ago(days),
      })
      .execute();
  return id;
}

const records = async (executionId: string) =>
  (
    await t.deps.database.db
      .selectFrom('cloud_syncrecord')
      .select('id')
      .where('execution_id', '=', executionId)
      .execute()
  ).length;

describe('cloud sync execution retention', () => {
  it('removes finished executions older than the setting with their records, and keeps the rest', async () => {
    const account = await admin.post(`${C}/accounts/`, {
      name: 'retention',
      provider: 'lan',
      attrs: { ip_group: ['127.0.0.9'], test_port: 22, test_timeout: 1, hostname_prefix: '' },
    });
    expect(account.statusCode, account.body).toBe(201);
    const task = await admin.post(`${C}/sync-instance-tasks/`, { name: 'retention', account: account.json().id });
    expect(task.statusCode, task.body).toBe(201);
    const taskId = task.json().id as string;
    const old = await execution(taskId, 40);
    const recent = await execution(taskId, 20);
    const stuck = await execution(taskId, 40, { finished: false });
    const otherJob = await execution(taskId, 40, { jobType: 'adhoc' });

    const patched = await admin.request({
      method: 'PATCH',
      url: '/api/v1/settings/setting/?category=clean',
      payload: { CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS: 30 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const r = await runRetention(t.deps, NOW);
    expect(r.deleted.cloud_sync_executions).toBe(1);

    const history = (await admin.get(`${C}/sync-instance-tasks/${taskId}/history/`)).json() as { id: string }[];
    expect(history.map((e) => e.id).sort()).toEqual([recent, stuck].sort());
    expect(await records(old)).toBe(0);
    expect(await records(recent)).toBe(2);
    const left = await t.deps.database.db
      .selectFrom('ops_jobexecution')
      .select('id')
      .where('id', 'in', [old, otherJob])
      .execute();
    expect(left.map((e) => e.id)).toEqual([otherJob]);

    // 0 keeps everything.
    await t.deps.settings.set('CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS', 0, 'clean');
    const ancient = await execution(taskId, 4000);
    expect((await runRetention(t.deps, NOW)).deleted.cloud_sync_executions).toBeUndefined();
    expect(await records(ancient)).toBe(2);
  });
});
