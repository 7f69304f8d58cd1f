import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { SessionClient, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD, createUser } from '../../../test-support/auth.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { freePort } from '../../../test-support/ports.ts';
import { startSshd, type Sshd } from '../../../test-support/sshd.ts';
import { collectTaskLog } from '../../../test-support/taskLog.ts';

/** A connectivity test's log streamed on /ws/ops/tasks/log/, against a real sshd. */
let t: TestApp;
let admin: SessionClient;
let sshd: Sshd;
let base: string;
const cookieOf = (c: SessionClient) => ({ cookie: `${SESSION_COOKIE}=${c.jar.values.get(SESSION_COOKIE)}` });

beforeAll(async () => {
  sshd = await startSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

async function runTest(ports: number[]): Promise<string> {
  const ids: string[] = [];
  for (const [i, port] of ports.entries()) {
    const res = await admin.post('/api/v1/assets/hosts/', {
      name: `log-host-${port}-${i}`,
      address: '127.0.0.1',
      platform: 'Linux',
      protocols: [{ name: 'ssh', port }],
    });
    ids.push(res.json().id);
  }
  const started = await admin.post('/api/v1/assets/assets/tasks/', { action: 'test', assets: ids });
  expect(started.statusCode).toBe(200);
  return started.json().task;
}

describe('task log socket', () => {
  it('streams the connectivity test line by line with CRLF, then the end event', async () => {
    const closed = await freePort();
    const task = await runTest([sshd.port, closed]);
    const { messages } = await collectTaskLog(base, cookieOf(admin), task, 15_000);
    expect(messages.at(-1)).toEqual({ event: 'end', task, message: '' });
    expect(messages.every((m) => m.task === task)).toBe(true);
    const text = messages.map((m) => m.message ?? '').join('');
    expect(text).toContain('>>> Task test-assets-connectivity started: 2 asset(s)\r\n');
    expect(text).toContain(`ssh/${sshd.port}: ok\r\n`);
    expect(text).toMatch(new RegExp(`ssh/${closed}: failed`));
    expect(text).toContain('connectivity: err');
    expect(text).toContain('>>> Task SUCCESS: 2/2\r\n');
    expect(text).not.toMatch(/[^\r]\n/);
    const state = (await admin.get(`/api/v1/ops/celery/task/${task}/`)).json();
    expect(state).toMatchObject({ state: 'SUCCESS', total: 2, done: 2 });

    // A finished log is replayed whole to a later reader.
    const again = await collectTaskLog(base, cookieOf(admin), task);
    expect(again.messages.map((m) => m.message ?? '').join('')).toBe(text);
  });

  it("waits with dots for an unknown task, hides another user's task, and closes anonymous sockets", async () => {
    const task = await runTest([sshd.port]);
    await collectTaskLog(base, cookieOf(admin), task, 15_000);
    await createUser(t, 'log_eve');
    const eve = new SessionClient(t.app);
    expect((await eve.login('log_eve', USER_PASSWORD)).statusCode).toBe(200);
    const seen = await collectTaskLog(base, cookieOf(eve), task, 1200);
    expect(seen.messages.length).toBeGreaterThanOrEqual(2);
    expect(seen.messages.every((m) => m.message === '.' && m.task === task)).toBe(true);
    expect((await eve.get(`/api/v1/ops/celery/task/${task}/`)).statusCode).toBe(404);

    const unknown = await collectTaskLog(base, cookieOf(admin), 'no-such-task', 1200);
    expect(unknown.messages.every((m) => m.message === '.')).toBe(true);

    const anon = await collectTaskLog(base, {}, task, 2000);
    expect(anon.closeCode).toBe(4001);
    expect(anon.messages).toEqual([]);
  });
});

describe('task log page address', () => {
  it('leads /core/ops/<type>/task/<id>/log/ to the console page, keeping the query', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/core/ops/celery/task/abc-1/log/?type=celery' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/ui/ops/celery/task/abc-1/log/?type=celery');
    expect((await t.app.inject({ method: 'GET', url: '/core/ops/other/task/abc-1/log/' })).headers.location).toBe(
      '/ui/404',
    );
  });
});
