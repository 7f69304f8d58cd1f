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

  it('counts an instance alive for three of the deployment’s heartbeats (GATEWAY_HEARTBEAT_MS), not a fixed bound', async () => {
    // Another instance, last heard from 20 s ago: alive at the default 30 s heartbeat (90 s), dead
    // at a 5 s one (15 s), in the terminals list, its load filter and the metrics alike.
    const quiet = await createTestApp({ GATEWAY_HEARTBEAT_MS: '5000' });
    try {
      const ago = new Date(Date.now() - 20_000).toISOString();
      for (const app of [t, quiet]) {
        await app.deps.database.db
          .insertInto('terminal_terminal')
          .values({
            id: 'peer-instance',
            name: 'peer:8080',
            type: 'gatehouse',
            remote_addr: '10.0.0.9',
            pid: 1,
            session_online: 0,
            cpu_load: 0,
            memory_used: 10,
            disk_used: 10,
            last_seen: ago,
            date_created: ago,
            comment: '',
          })
          .execute();
      }
      for (const [app, up] of [
        [t, true],
        [quiet, false],
      ] as const) {
        const client = app === t ? admin : await adminClient(quiet.app);
        const row = (await client.get('/api/v1/terminal/terminals/peer-instance/')).json();
        expect(row.is_alive).toBe(up);
        expect(row.load.value).toBe(up ? 'normal' : 'offline');
        const offline = (await client.get('/api/v1/terminal/terminals/?load=offline')).json() as { id: string }[];
        expect(offline.some((r) => r.id === 'peer-instance')).toBe(!up);
        const metrics = (await client.get('/api/v1/terminal/components/metrics/')).json().gatehouse;
        expect(metrics.instances.find((i: { id: string }) => i.id === 'peer-instance').is_alive).toBe(up);
      }
    } finally {
      await quiet.close();
    }
  });

  it('needs terminal.view_terminal', async () => {
    await makeUser(admin, 'metrics-user');
    const user = new SessionClient(t.app);
    expect((await user.login('metrics-user', PASSWORD)).statusCode).toBe(200);
    expect((await user.get('/api/v1/terminal/components/metrics/')).statusCode).toBe(403);
  });
});
