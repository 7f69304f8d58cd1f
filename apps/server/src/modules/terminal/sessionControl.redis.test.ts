import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createPeerApp, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { gatewayOf } from './gatewayInstance.ts';
import { hostWithAccounts, TestTerminal } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * Two instances on one database and Redis: a session held by A is watched, locked, typed into (a
 * writable sharing's joiner) and killed from B.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('live control across instances (Redis bus)', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof createPeerApp>>;
  let sshd: SshdWithUsers;
  beforeAll(async () => {
    sshd = await startShellSshd();
    a = await createTestApp({ REDIS_URL: redisUrl! });
    b = await createPeerApp(a);
  }, 30_000);
  afterAll(async () => {
    sshd?.stop();
    await b?.close();
    await a?.close();
  });

  it('locks, watches, types into and terminates from instance B a session held by instance A', async () => {
    const adminA = await adminClient(a.app);
    const adminB = await adminClient(b.app);
    const { host, key } = await hostWithAccounts(adminA, sshd);
    const user = await a.deps.database.db
      .selectFrom('users_user')
      .select(['id', 'name', 'username'])
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    const s = await gatewayOf(a.app).openSession({
      user,
      assetId: host.id,
      accountId: key.id,
      lang: 'en',
      loginFrom: 'WT',
      remoteAddr: '127.0.0.1',
    });
    const term = new TestTerminal(s.stream);
    await term.waitFor('gh$ ');
    expect(gatewayOf(b.app).id).not.toBe(gatewayOf(a.app).id);
    const terminals = (await adminB.get('/api/v1/terminal/terminals/')).json().map((x: { id: string }) => x.id);
    expect(terminals).toEqual(expect.arrayContaining([gatewayOf(a.app).id, gatewayOf(b.app).id]));

    const watched: string[] = [];
    const stop = await gatewayOf(b.app).registry.watch(s.id, (text) => watched.push(text));
    const lock = await adminB.post('/api/v1/terminal/tasks/toggle-lock-session/', {
      session_id: s.id,
      task_name: 'lock_session',
    });
    expect(lock.json()).toEqual({ ok: [s.id] });
    await term.waitFor('This session is paused by an administrator');
    await adminB.post('/api/v1/terminal/tasks/toggle-lock-session/', { session_id: s.id, task_name: 'unlock_session' });
    await term.waitFor('This session is resumed.');
    await term.run('echo seen-on-b');
    for (let i = 0; i < 100 && !watched.join('').includes('seen-on-b'); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(watched.join('')).toContain('seen-on-b');
    await stop();

    // A writable sharing's joiner on B types into the session on A; A's owner hears of the join.
    const events: string[] = [];
    s.on('share', (e: { event: string }) => events.push(e.event));
    await gatewayOf(b.app).registry.share(s.id, { event: 'joined', user: 'someone(someone)', permission: 'writable' });
    await gatewayOf(b.app).registry.input(s.id, 'echo typed-on-$((1+1))b\r');
    await term.waitFor('typed-on-2b');
    expect(events).toEqual(['joined']);

    expect((await adminB.post('/api/v1/terminal/tasks/kill-session/', [s.id])).json()).toEqual({ ok: [s.id] });
    await term.waitEnd();
    expect(term.text).toContain('This session was terminated by an administrator.');
    for (let i = 0; i < 50 && !(await adminB.get(`/api/v1/terminal/sessions/${s.id}/`)).json().is_finished; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await adminB.get(`/api/v1/terminal/sessions/${s.id}/`)).json()).toMatchObject({
      is_finished: true,
      has_replay: true,
      terminal: { id: gatewayOf(a.app).id },
    });
  }, 60_000);
});
