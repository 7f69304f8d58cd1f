import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createPeerApp, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { linuxHost } from '../../../test-support/sshAsset.ts';

/**
 * A periodic automation on two instances sharing one database and Redis: the engine's scheduler
 * (the same one as the job centre's) fires each tick once, whichever instance sees it first.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('periodic automations across instances (Redis)', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof createPeerApp>>;
  beforeAll(async () => {
    a = await createTestApp({ REDIS_URL: redisUrl!, JOB_MINUTE_MS: '1000', JOB_HEARTBEAT_MS: '300' });
    b = await createPeerApp(a);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('fires each tick of a periodic plan once, with the timing trigger', async () => {
    const admin = await adminClient(a.app);
    // A host no automation can reach (no privileged account): each run ends at once, failed.
    const host = await linuxHost(apiPost(admin), 1);
    const plan = await apiPost(admin)('/api/v1/accounts/gather-account-automations/', {
      name: 'every-tick',
      assets: [host.id],
      is_periodic: true,
      crontab: '* * * * *',
    });
    expect(plan.periodic_display).toBe('Regularly perform ( * * * * * )');
    const first = Math.floor(Date.now() / 1000);
    const executions = async () =>
      (await admin.get(`/api/v1/accounts/gather-account-executions/?automation_id=${plan.id}`)).json() as {
        trigger: { value: string };
      }[];
    await expect.poll(async () => (await executions()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await admin.request({
      method: 'PATCH',
      url: `/api/v1/accounts/gather-account-automations/${plan.id}/`,
      payload: { is_periodic: false },
    });
    const last = Math.floor(Date.now() / 1000) + 1;
    const claims: number[] = [];
    for (let k = first; k <= last; k++) {
      const n = await a.deps.cache.get<number>(`gh:jobs:tick:${plan.id}:${k}`);
      if (n) claims.push(n);
    }
    expect(claims.filter((n) => n === 2).length).toBeGreaterThanOrEqual(2);
    const all = await executions();
    expect(all.length).toBe(claims.length);
    expect(all.every((e) => e.trigger.value === 'timing')).toBe(true);
  }, 60_000);
});
