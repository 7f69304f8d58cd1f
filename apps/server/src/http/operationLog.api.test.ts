import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../test-support/testApp.ts';
import { captureLogs } from '../../test-support/accounts.ts';
import { adminIdentity, hostWithAccounts, openShell } from '../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../test-support/sshd.ts';
import { prettyLine } from '../platform/log/prettyLog.ts';

/**
 * What an operator reads in the server's log at `info`: one line per request (method, path,
 * status, time, user; never the query string's values), sign-ins and their refusals, sessions
 * opened and closed, tasks started and finished; on a terminal as readable lines.
 */
let t: TestApp;
let sshd: SshdWithUsers;
let logs: ReturnType<typeof captureLogs>;
type Line = Record<string, unknown>;
const parsed = (): Line[] => logs.lines.map((l) => JSON.parse(l) as Line);
const withMsg = (msg: string) => parsed().filter((l) => l.msg === msg);

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
  logs = captureLogs(t);
}, 30_000);
afterAll(async () => {
  logs?.stop();
  sshd?.stop();
  await t?.close();
});

describe('the operation log', () => {
  it('has one line per request with method, path, status, time and user, and no query values', async () => {
    const admin = await adminClient(t.app);
    const from = logs.lines.length;
    await admin.get('/api/v1/users/users/?search=hunter2-in-the-query');
    const lines = logs.lines.slice(from).map((l) => JSON.parse(l) as Line);
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/users/users/', status: 200, user: 'admin' });
    expect(typeof requests[0]!.ms).toBe('number');
    expect(logs.lines.join('\n')).not.toContain('hunter2');
  });

  it('tells sign-ins and refused sign-ins, never with the password', async () => {
    const c = new SessionClient(t.app);
    expect((await c.login('admin', 'Wrong-password-77')).statusCode).toBe(400);
    expect(withMsg('sign-in refused').at(-1)).toMatchObject({
      username: 'admin',
      reason: 'password_failed',
      level: 40,
    });
    expect((await adminClient(t.app)).jar.values.size).toBeGreaterThan(0);
    expect(withMsg('signed in').at(-1)).toMatchObject({ username: 'admin', backend: 'password' });
    expect(logs.lines.join('\n')).not.toContain('Wrong-password-77');
  });

  it('tells a terminal session opened and closed, and a task started and finished', async () => {
    const admin = await adminClient(t.app);
    const host = await hostWithAccounts(admin, sshd);
    const { s, term } = await openShell(t.app, {
      user: await adminIdentity(t.app),
      assetId: host.host.id,
      accountId: host.password.id,
    });
    expect(withMsg('session opened').at(-1)).toMatchObject({ session: s.id, protocol: 'ssh', from: 'WT' });
    await term.type(['exit\r']);
    await term.waitEnd();
    await expect.poll(() => withMsg('session closed').find((l) => l.session === s.id)).toMatchObject({ commands: 1 });

    const task = (
      await admin.post('/api/v1/accounts/accounts/tasks/', { action: 'verify', accounts: [host.password.id] })
    ).json().task;
    expect(withMsg('task started').find((l) => l.task === task)).toMatchObject({ total: 1 });
    await expect.poll(() => withMsg('task finished').find((l) => l.task === task)).toMatchObject({ state: 'SUCCESS' });
  });
});

describe('log lines for a person (LOG_FORMAT=pretty)', () => {
  it('prints a request as method, path, status, time and user, and other fields as key=value', () => {
    const at = new Date(2026, 10, 27, 14, 2, 3, 412).getTime();
    expect(
      prettyLine(
        JSON.stringify({
          level: 30,
          time: at,
          pid: 1,
          hostname: 'h',
          reqId: 'r',
          msg: 'request',
          method: 'GET',
          path: '/api/',
          status: 200,
          ms: 12,
          user: 'admin',
        }),
      ),
    ).toBe('14:02:03.412 INFO  GET /api/ 200 12 ms admin');
    expect(
      prettyLine(
        JSON.stringify({
          level: 40,
          time: at,
          msg: 'sign-in refused',
          username: 'bob',
          reason: 'password_failed',
          note: 'two words',
        }),
      ),
    ).toBe('14:02:03.412 WARN  sign-in refused username=bob reason=password_failed note="two words"');
    expect(prettyLine('not json')).toBe('not json');
  });
});
