import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { runTask } from './registry.ts';

/**
 * Settings › Tasks: Gatehouse's own tasks listed with their queue, cycle, success/total and state,
 * each run recorded with its history, a re-run from an execution, and the switch of a periodic
 * task, which the job engine's scheduler honours (its minute shortened so an hourly task fires
 * every 6 s).
 */
let t: TestApp;
let admin: SessionClient;
const T = '/api/v1/ops/';

beforeAll(async () => {
  t = await createTestApp({ JOB_MINUTE_MS: '100' });
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

interface Task {
  name: string;
  meta: { comment: string; queue: string };
  exec_cycle: string;
  summary: { success: number; total: number };
  state: string;
  enabled: boolean;
}
const task = async (name: string) => (await admin.get(`${T}tasks/${name}/`)).json() as Task;
const executions = async (name: string) =>
  (await admin.get(`${T}task-executions/?task_id=${name}&limit=50`)).json() as {
    count: number;
    results: { id: string; state: string; trigger: string; result: Record<string, number> }[];
  };

describe('tasks', () => {
  it('lists the periodic tasks with their cycles; the expiry notices ran at start and by the scheduler', async () => {
    const list = (await admin.get(`${T}tasks/`)).json() as Task[];
    expect(list.map((x) => x.name)).toEqual(
      expect.arrayContaining(['clean_audits_log_period', 'import_ldap_user_periodic', 'perm_expire_notify']),
    );
    const byName = Object.fromEntries(list.map((x) => [x.name, x]));
    expect(byName.clean_audits_log_period!).toMatchObject({
      meta: { comment: 'Clean audit records older than their keep days', queue: 'periodic' },
      exec_cycle: 'Every day at 02:00',
    });
    expect(byName.import_ldap_user_periodic!.exec_cycle).toBe('Not scheduled (its feature is off)');
    expect(byName.perm_expire_notify!.exec_cycle).toBe('Every hour');
    await expect
      .poll(async () => (await executions('perm_expire_notify')).results.map((e) => e.trigger), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(['start', 'schedule']));
    expect((await task('perm_expire_notify')).state).toBe('green');
  });

  it('runs a task on demand, keeps its history, and re-runs it from an execution', async () => {
    const run = await admin.post(`${T}task-executions/?task_id=clean_audits_log_period`, {});
    expect(run.statusCode, run.body).toBe(201);
    const first = run.json().id as string;
    await expect.poll(async () => (await executions('clean_audits_log_period')).results[0]?.state).toBe('success');
    const again = await admin.post(`${T}task-executions/?from=${first}`, {});
    expect(again.statusCode).toBe(201);
    await expect.poll(async () => (await task('clean_audits_log_period')).summary).toEqual({ success: 2, total: 2 });
    const h = await executions('clean_audits_log_period');
    expect(h.count).toBe(2);
    expect(h.results.map((e) => e.trigger)).toEqual(['manual', 'manual']);
    expect(h.results[0]!.result).toHaveProperty('login_logs');
    expect((await admin.get(`${T}task-executions/${first}/`)).json()).toMatchObject({ id: first, is_success: true });
  });

  it('switches a periodic task off: a schedule no longer runs it', async () => {
    const off = await admin.patch(`${T}celery/period-tasks/perm_expire_notify/`, { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ name: 'perm_expire_notify', enabled: false });
    expect((await task('perm_expire_notify')).enabled).toBe(false);
    // What the scheduler calls when the hour comes: nothing is run or recorded.
    const before = (await executions('perm_expire_notify')).count;
    expect(await runTask(t.app, 'perm_expire_notify', 'schedule')).toBeUndefined();
    expect((await executions('perm_expire_notify')).count).toBe(before);
    const bad = await admin.patch(`${T}celery/period-tasks/perm_expire_notify/`, { enabled: 'maybe' });
    expect(bad.statusCode).toBe(400);
    await admin.patch(`${T}celery/period-tasks/perm_expire_notify/`, { enabled: true });
  });

  it('refuses unknown tasks and people without the permission', async () => {
    expect((await admin.get(`${T}tasks/nope/`)).statusCode).toBe(404);
    expect((await admin.post(`${T}task-executions/?task_id=nope`, {})).statusCode).toBe(404);
    await makeUser(admin, 'taskless');
    const c = new SessionClient(t.app);
    await c.login('taskless', PASSWORD);
    expect((await c.get(`${T}tasks/`)).statusCode).toBe(403);
    expect((await c.post(`${T}task-executions/?task_id=clean_audits_log_period`, {})).statusCode).toBe(403);
  });
});
