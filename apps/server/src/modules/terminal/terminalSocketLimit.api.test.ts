import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { makePerm, type Row } from '../../../test-support/perms.ts';
import { hostWithAccounts } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { SITE_MSG_SOCKET_PATH } from '../notifications/siteMessageSocket.ts';
import { WEB_TERMINAL_SOCKET_PATH } from './webTerminalSocket.ts';

/**
 * LIMIT_WEBSOCKETS_PER_USER holds for web terminal sockets opened with a connection token and no
 * cookie (a script, another tab's token): they count for the token's user as cookie sockets do.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let base: string;
let target: { host: Row; password: Row };

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp({ LIMIT_WEBSOCKETS_PER_USER: '2' });
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  const me = (await admin.get('/api/v1/users/profile/')).json() as Row;
  await makePerm(admin, { users: [me.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['connect'] });
  base = await listenOnLoopback(t.app);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

const token = async () =>
  (
    await admin.post('/api/v1/authentication/connection-token/', {
      asset: target.host.id,
      account: target.password.name,
      protocol: 'ssh',
      connect_method: 'web_cli',
    })
  ).json().id as string;

/** A socket that is open (a terminal's once its session started), or the HTTP status that refused it. */
function open(url: string, headers: Record<string, string> = {}, ready = 'open'): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    if (ready === 'open') ws.once('open', () => resolve(ws));
    else ws.on('message', (raw) => JSON.parse(String(raw)).type === ready && resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', reject);
  });
}
const terminal = async () => open(`${base}${WEB_TERMINAL_SOCKET_PATH}?token=${await token()}`, {}, 'CONNECT');

describe('terminal sockets opened with a token', () => {
  it('count toward the token user’s socket limit, with or without a cookie', async () => {
    const a = (await terminal()) as WebSocket;
    const b = (await terminal()) as WebSocket;
    expect(b).toBeInstanceOf(WebSocket);
    expect(await terminal()).toBe(429);
    const cookie = `${SESSION_COOKIE}=${admin.jar.values.get(SESSION_COOKIE)}`;
    expect(await open(`${base}${SITE_MSG_SOCKET_PATH}`, { cookie })).toBe(429);
    const closed = new Promise((r) => a.once('close', r));
    a.close();
    await closed;
    await expect
      .poll(async () => {
        const c = await terminal();
        if (c instanceof WebSocket) c.close();
        return c instanceof WebSocket;
      })
      .toBe(true);
    b.close();
  });
});
