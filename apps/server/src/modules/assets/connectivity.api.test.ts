import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { freePort } from '../../../test-support/ports.ts';
import { startSshd, type Sshd } from '../../../test-support/sshd.ts';
import { taskEnded } from '../../../test-support/taskLog.ts';

/** The connectivity test against a real OpenSSH server on 127.0.0.1 and a closed port. */
let t: TestApp;
let admin: SessionClient;
let sshd: Sshd;
let sshPort: number;
let closedPort: number;

beforeAll(async () => {
  sshd = await startSshd();
  sshPort = sshd.port;
  closedPort = await freePort();
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

const finished = (task: string) => taskEnded(admin, task);

describe('asset connectivity test', () => {
  it('records Reachable after an SSH handshake and Unreachable for a closed port', async () => {
    const up = (
      await admin.post('/api/v1/assets/hosts/', {
        name: 'sshd',
        address: '127.0.0.1',
        platform: 'Linux',
        protocols: [{ name: 'ssh', port: sshPort }],
      })
    ).json();
    const down = (
      await admin.post('/api/v1/assets/hosts/', {
        name: 'closed',
        address: '127.0.0.1',
        platform: 'Linux',
        protocols: [{ name: 'ssh', port: closedPort }],
      })
    ).json();
    const one = await admin.post(`/api/v1/assets/assets/${up.id}/tasks/`, { action: 'test' });
    expect(one.statusCode).toBe(200);
    const s1 = await finished(one.json().task);
    expect(s1).toMatchObject({ state: 'SUCCESS', total: 1, done: 1 });
    expect(s1.results[0].protocols[0]).toMatchObject({ name: 'ssh', port: sshPort, ok: true });
    const a = (await admin.get(`/api/v1/assets/hosts/${up.id}/`)).json();
    expect(a.connectivity).toEqual({ value: 'ok', label: 'Ok' });
    expect(a.date_verified).not.toBeNull();

    const both = await admin.post('/api/v1/assets/assets/tasks/', { action: 'test', assets: [up.id, down.id] });
    const s2 = await finished(both.json().task);
    expect(s2.results.map((r: { connectivity: string }) => r.connectivity)).toEqual(['ok', 'err']);
    expect((await admin.get(`/api/v1/assets/hosts/${down.id}/`)).json().connectivity.value).toBe('err');
    expect((await admin.post(`/api/v1/assets/assets/${up.id}/tasks/`, { action: 'bogus' })).statusCode).toBe(400);
  }, 30_000);
});
