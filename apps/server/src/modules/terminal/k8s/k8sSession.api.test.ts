import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import type { Row } from '../../../../test-support/perms.ts';
import { commandRule } from '../../../../test-support/gateway.ts';
import { socketClient } from '../../../../test-support/webTerminal.ts';
import { WEB_TERMINAL_SOCKET_PATH } from '../webTerminalSocket.ts';
import { startFakeK8s, type FakeK8s } from '../../../../test-support/k8sApi.ts';
import { k8sAsset, k8sToken, k8sUser } from '../../../../test-support/k8sAsset.ts';

/**
 * A shell in a Kubernetes container through the web terminal's socket: the gateway opens the
 * container's exec WebSocket (`v4.channel.k8s.io`) on a fake API server (test-support/k8sApi.ts: no real
 * cluster can run here; its exec runs a real /bin/sh under a pty), and the session is recorded,
 * its commands read and filtered, and it can be killed, as an SSH session.
 */
let t: TestApp;
let admin: SessionClient;
let fake: FakeK8s;
let base: string;
let asset: Row;
let account: Row;

beforeAll(async () => {
  fake = await startFakeK8s({ apps: { 'api-0': ['app', 'proxy', 'no-shell'] } });
  t = await createTestApp();
  admin = await adminClient(t.app);
  const made = await k8sAsset(admin, fake.url, [{ username: 'deployer', secret: fake.token }]);
  asset = made.asset;
  account = made.accounts[0]!;
  base = await listenOnLoopback(t.app);
  await commandRule(admin, asset.id, 'no rm in pods', 'rm');
}, 30_000);
afterAll(async () => {
  await fake?.stop();
  await t?.close();
});

function container(token: string, q = 'namespace=apps&pod=api-0&container=app') {
  const c = socketClient(`${base}${WEB_TERMINAL_SOCKET_PATH}?token=${token}&cols=100&rows=30&${q}`);
  const type = async (s: string) => {
    for (const ch of s) {
      c.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: ch }));
      await new Promise((r) => setTimeout(r, 15));
    }
  };
  const prompts = () => c.text().split('gh$ ').length - 1;
  /** Types a line and Enter, then waits for the next prompt. */
  const run = async (line: string) => {
    const before = prompts();
    await type(`${line}\r`);
    await c.waitFor(() => prompts() > before, `the prompt after ${line}`);
  };
  return { ...c, type, run };
}

async function finished(id: string): Promise<Row> {
  for (let i = 0; i < 100; i++) {
    const s = (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json() as Row;
    if (s.is_finished) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the session did not finish');
}

describe('a container shell through the web terminal', () => {
  it('runs commands in the container, records them and the replay, and passes resizes on', async () => {
    const u = await k8sUser(t, admin, asset.id);
    const term = container(await k8sToken(u.client, asset.id, account.name));
    await term.waitFor(() => term.msgs.some((m) => m.type === 'CONNECT'), 'CONNECT');
    await term.waitFor(() => term.text().includes('gh$ '), 'prompt');
    term.ws.send(JSON.stringify({ type: 'TERMINAL_RESIZE', data: { cols: 120, rows: 40 } }));
    expect(term.text()).toMatch(/^welcome to app\r\n/);
    await term.run('echo hi-$((6*7))');
    expect(term.text()).toContain('hi-42');
    term.ws.send(JSON.stringify({ type: 'CLOSE' }));
    await term.closed;

    const id = term.msgs.find((m) => m.type === 'CONNECT')!.id!;
    const session = await finished(id);
    expect(session).toMatchObject({
      protocol: 'k8s',
      asset_id: asset.id,
      account: `${account.name}(deployer)`,
      user_id: u.id,
      is_success: true,
      has_replay: true,
      command_amount: 1,
    });
    const commands = (await admin.get(`/api/v1/terminal/commands/?session_id=${id}`)).json() as Row[];
    expect(commands.map((c) => [c.input, c.risk_level.value])).toEqual([['echo hi-$((6*7))', 0]]);
    expect(commands[0]!.output).toContain('hi-42');
    const replay = (await admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json() as Row;
    expect(gunzipSync((await admin.get(replay.src)).rawPayload).toString('utf8')).toContain('hi-42');
    // The exec asked for the chosen container's shell with the account's token, and got the sizes.
    expect(fake.requests.filter((r) => r.method === 'WS').at(-1)).toEqual({
      method: 'WS',
      path: '/api/v1/namespaces/apps/pods/api-0/exec?container=app&command=%2Fbin%2Fsh&stdin=true&stdout=true&stderr=true&tty=true',
      authorized: true,
    });
    expect(fake.resizes).toEqual(
      expect.arrayContaining([
        { Width: 100, Height: 30 },
        { Width: 120, Height: 40 },
      ]),
    );
  });

  it('refuses a command a command filter rule rejects, and is killed by an administrator', async () => {
    const u = await k8sUser(t, admin, asset.id);
    const term = container(
      await k8sToken(u.client, asset.id, account.name),
      'namespace=apps&pod=api-0&container=proxy',
    );
    await term.waitFor(() => term.text().includes('gh$ '), 'prompt');
    await term.run('touch kept');
    await term.run('rm kept');
    expect(term.text()).toContain('no rm in pods');
    // The refused line is dropped with Ctrl+C, a second one when the shell is slow to show its
    // prompt (commandGate.ts): wait for the listing itself, after the echo of ls, rather than for
    // the next prompt.
    const from = term.text().length;
    await term.run('ls');
    await term.waitFor(() => /ls\r\n[^]*kept/.test(term.text().slice(from)), 'the listing of ls');
    const id = term.msgs.find((m) => m.type === 'CONNECT')!.id!;
    const kill = await admin.post('/api/v1/terminal/tasks/kill-session/', [id]);
    expect(kill.statusCode, kill.body).toBeLessThan(300);
    await term.closed;
    expect(term.msgs.at(-1)).toEqual({ type: 'CLOSE', reason: 'killed' });
    await finished(id);
    const commands = (await admin.get(`/api/v1/terminal/commands/?session_id=${id}`)).json() as Row[];
    expect(commands.map((c) => [c.input, c.risk_level.value])).toEqual(
      expect.arrayContaining([
        ['touch kept', 0],
        ['rm kept', 5],
        ['ls', 0],
      ]),
    );
  });

  it('refuses a k8s token without a container, a bad name, and a cluster refusing the account', async () => {
    const u = await k8sUser(t, admin, asset.id);
    const token = await k8sToken(u.client, asset.id, account.name);
    const bad = container(token, 'namespace=apps&pod=../etc&container=app');
    await bad.closed;
    expect(bad.msgs[0]).toEqual({
      type: 'TERMINAL_ERROR',
      err: 'Choose a namespace, pod and container to connect to.',
    });
    const none = container(token, '');
    await none.closed;
    expect(none.msgs[0]).toEqual({
      type: 'TERMINAL_ERROR',
      err: 'Choose a namespace, pod and container to connect to.',
    });
    const missing = container(
      await k8sToken(u.client, asset.id, account.name),
      'namespace=apps&pod=api-0&container=nope',
    );
    await missing.closed;
    expect(missing.msgs[0]!.err).toBe(
      `The Kubernetes API server 127.0.0.1:${fake.port} answered HTTP 404: container not found`,
    );
    const noShell = container(
      await k8sToken(u.client, asset.id, account.name),
      'namespace=apps&pod=api-0&container=no-shell',
    );
    await noShell.closed;
    expect(noShell.text()).toContain('exec: "/bin/sh": stat /bin/sh: no such file or directory');
    expect(noShell.msgs.at(-1)).toEqual({ type: 'CLOSE', reason: 'closed' });
    const stale = await k8sAsset(admin, fake.url, [{ username: 'old', secret: 'expired-token' }]);
    const v = await k8sUser(t, admin, stale.asset.id);
    const refused = container(await k8sToken(v.client, stale.asset.id, 'old'));
    await refused.closed;
    expect(refused.msgs[0]!.err).toContain("refused the account's token (HTTP 401)");
    const rows = await t.deps.database.db
      .selectFrom('terminal_session')
      .selectAll()
      .where('asset_id', '=', stale.asset.id)
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ protocol: 'k8s', is_success: expect.anything(), is_finished: expect.anything() }),
    ]);
    expect(Boolean(rows[0]!.is_success)).toBe(false);
  });
});
