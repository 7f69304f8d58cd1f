import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { makeUser, PASSWORD } from '../../../test-support/perms.ts';
import { gatewayOf } from './gatewayInstance.ts';

/** The Monitor tab's metrics: this instance's gateway with its real CPU, memory and disk figures. */
let t: TestApp;
let admin: SessionClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t?.close());

describe('component metrics', () => {
  it('counts instances by load and shows each one’s CPU, memory, disk and sessions', async () => {
    await gatewayOf(t.app).heartbeat();
    const res = await admin.get('/api/v1/terminal/components/metrics/');
    expect(res.statusCode).toBe(200);
    const m = res.json().gatehouse;
    expect(m.total).toBe(1);
    expect(m.normal + m.high + m.critical).toBe(1);
    expect(m.offline).toBe(0);
    expect(m.session_active).toBe(0);
    const mine = m.instances.find((i: { id: string }) => i.id === gatewayOf(t.app).id);
    expect(mine).toMatchObject({ is_alive: true, session_online: 0 });
    // The data directory's file system is in use (it holds at least the database).
    expect(mine.disk_used).toBeGreaterThan(0);
    expect(mine.disk_used).toBeLessThanOrEqual(100);
    expect(mine.memory_used).toBeGreaterThan(0);
  });

  it('needs terminal.view_terminal', async () => {
    await makeUser(admin, 'metrics-user');
    const user = new SessionClient(t.app);
    expect((await user.login('metrics-user', PASSWORD)).statusCode).toBe(200);
    expect((await user.get('/api/v1/terminal/components/metrics/')).statusCode).toBe(403);
  });
});
