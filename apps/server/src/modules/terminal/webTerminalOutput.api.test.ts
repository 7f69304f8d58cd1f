import { gunzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { makePerm, type Row } from '../../../test-support/perms.ts';
import { hostWithAccounts } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { WEB_TERMINAL_SOCKET_PATH } from './webTerminalSocket.ts';

/**
 * Megabytes of output through the web terminal (a real OpenSSH on loopback), which the gateway
 * gathers into frames of many pieces and pauses while the page is behind: the page gets all of it
 * in order, also when it stops reading for a while (the asset's output waits); the recording holds
 * all of it; the next command line is still read and recorded (the command reader only keeps the
 * tail of a flood).
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let base: string;
let target: { host: Row; password: Row };

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
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

async function openTerminal() {
  const token = (
    await admin.post('/api/v1/authentication/connection-token/', {
      asset: target.host.id,
      account: target.password.name,
      protocol: 'ssh',
      connect_method: 'web_cli',
    })
  ).json() as Row;
  const ws = new WebSocket(`${base}${WEB_TERMINAL_SOCKET_PATH}?token=${token.id}`);
  let text = '';
  let sessionId = '';
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { type: string; data?: string; id?: string };
    if (m.type === 'CONNECT') sessionId = m.id!;
    if (m.type === 'TERMINAL_DATA') {
      text += m.data;
    }
  });
  const closed = new Promise<void>((r) => ws.once('close', () => r()));
  const waitFor = async (test: () => boolean, what: string, ms = 60_000) => {
    for (let waited = 0; !test(); waited += 20) {
      if (waited > ms) throw new Error(`no ${what}: ${text.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const send = (data: string) => ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data }));
  return { ws, closed, waitFor, send, text: () => text, session: () => sessionId };
}

/** The numbers `seq` printed (lines of digits once the shell's mode switches are left out). */
const numbers = (text: string, from: number) =>
  text
    .slice(from)
    .split('\n')
    // eslint-disable-next-line no-control-regex -- bash's bracketed-paste switch and carriage returns
    .map((l) => l.replace(/\x1b\[[0-9;?]*[a-zA-Z]|\r/g, ''))
    .filter((l) => /^\d+$/.test(l))
    .map(Number);

describe('a flood of output through the web terminal', () => {
  it('arrives whole and in order, is recorded whole, and the next command is still read', async () => {
    const term = await openTerminal();
    await term.waitFor(() => term.text().includes('gh$ '), 'prompt');
    const from = term.text().length;
    term.send('seq 1 300000; echo END-$((40+2))\r');
    await term.waitFor(() => term.text().includes('END-42'), 'the end of seq');
    const seen = numbers(term.text(), from);
    expect(seen.length).toBe(300000);
    expect(seen.every((n, i) => n === i + 1)).toBe(true);

    const next = term.text().length;
    for (const key of 'echo after-$((6*7))') {
      term.send(key);
      await new Promise((r) => setTimeout(r, 10));
    }
    term.send('\r');
    await term.waitFor(() => term.text().slice(next).includes('after-42'), 'the next command');
    term.ws.send(JSON.stringify({ type: 'CLOSE' }));
    await term.closed;

    let session: Row = {};
    for (let i = 0; i < 200 && !session.has_replay; i++) {
      session = (await admin.get(`/api/v1/terminal/sessions/${term.session()}/`)).json() as Row;
      if (!session.has_replay) await new Promise((r) => setTimeout(r, 50));
    }
    const commands = (await admin.get(`/api/v1/terminal/commands/?session_id=${term.session()}`)).json() as Row[];
    expect(commands.map((c) => c.input).sort()).toEqual(['echo after-$((6*7))', 'seq 1 300000; echo END-$((40+2))']);
    const replay = (await admin.get(`/api/v1/terminal/sessions/${term.session()}/replay/`)).json() as Row;
    const cast = gunzipSync((await admin.get(replay.src as string)).rawPayload)
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as [number, string, string]);
    const recorded = numbers(
      cast
        .filter((e) => e[1] === 'o')
        .map((e) => e[2])
        .join(''),
      0,
    );
    expect(recorded.length).toBe(300000);
    expect(recorded.every((n, i) => n === i + 1)).toBe(true);
  }, 120_000);

  it('waits for a page that stops reading, then delivers everything', async () => {
    const term = await openTerminal();
    await term.waitFor(() => term.text().includes('gh$ '), 'prompt');
    const from = term.text().length;
    term.send('seq 1 1500000; echo END-$((40+2))\r');
    // The page stops reading for a while: the socket and the server's buffers fill.
    await term.waitFor(() => term.text().length > from + 100_000, 'the first output');
    const raw = (term.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    await new Promise((r) => setTimeout(r, 1500));
    raw.resume();
    await term.waitFor(() => term.text().includes('END-42'), 'the end of seq', 120_000);
    const seen = numbers(term.text(), from);
    expect(seen.length).toBe(1500000);
    expect(seen.every((n, i) => n === i + 1)).toBe(true);
    term.ws.close();
    await term.closed;
  }, 180_000);
});
