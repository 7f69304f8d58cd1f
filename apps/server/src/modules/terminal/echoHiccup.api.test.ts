import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelayProxy, type DelayProxy } from '../../testing/delayProxy.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../testing/testApp.ts';
import { RISK } from './gateway/commandPolicy.ts';
import { adminIdentity, commandRule, hostWithAccounts, openShell } from './gatewayTesting.ts';
import { startShellSshd, type ShellSshd } from './shellSshdTesting.ts';

/**
 * An echo held back mid-line (a loaded asset, a hiccup on the link): a real OpenSSH behind a
 * loopback proxy that, on cue, lets the echo of the next-to-last key through a few ms late (after
 * the last key was sent, as a busy gateway sees it) and holds the last key's echo for 250 ms. The
 * echo clock alone took the first echo for the end and read the line one key short, so a reject
 * rule on the whole command let it run; the line must be read with everything that was typed.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: ShellSshd;
let proxy: DelayProxy;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
let adminUser: { id: string; name: string; username: string };
const TARGET = 'rm -rf /tmp/gh-hiccup-target';

beforeAll(async () => {
  sshd = await startShellSshd();
  proxy = await startDelayProxy(sshd.port, 0);
  t = await createTestApp();
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, { ...sshd, port: proxy.port });
  adminUser = await adminIdentity(t.app);
  await commandRule(admin, target.host.id, 'no rm hiccup', TARGET);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  sshd?.stop();
  await t?.close();
});

describe('an echo held back mid-line', () => {
  it('reads the whole typed line, so the reject rule sees the command the asset would run', async () => {
    const { s, term } = await openShell(t.app, {
      user: adminUser,
      assetId: target.host.id,
      accountId: target.password.id,
    });
    for (let round = 0; round < 3; round++) {
      const from = term.text.length;
      await term.type(TARGET.slice(0, -2));
      await term.waitFor(TARGET.slice(0, -2), from);
      proxy.hiccup([8, 250, 250, 250]);
      await term.type(TARGET.slice(-2), 3);
      await term.type('\r', 0);
      await term.waitFor(/gh\$ $/, from + TARGET.length);
      proxy.hiccup([]);
    }
    const rows = (await admin.get(`/api/v1/terminal/commands/?session_id=${s.id}`)).json() as {
      input: string;
      risk_level: { value: number };
    }[];
    expect(rows.map((r) => [r.input, r.risk_level.value])).toEqual([
      [TARGET, RISK.reject],
      [TARGET, RISK.reject],
      [TARGET, RISK.reject],
    ]);
    await s.close();
  }, 60_000);
});
