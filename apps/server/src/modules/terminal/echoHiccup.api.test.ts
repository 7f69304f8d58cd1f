import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelayProxy } from '../../../test-support/delayProxy.ts';
import type { SessionClient, TestApp } from '../../../test-support/testApp.ts';
import { RISK } from './gateway/commandPolicy.ts';
import { openShell, proxiedAsset, type GatewayUser, type ProxiedAsset } from '../../../test-support/gateway.ts';

/**
 * An echo held back mid-line (a loaded asset, a hiccup on the link): a real OpenSSH behind a
 * loopback proxy that, on cue, lets the echo of the next-to-last key through a few ms late (after
 * the last key was sent, as a busy gateway sees it) and holds the last key's echo for 250 ms. The
 * echo clock alone took the first echo for the end and read the line one key short, so a reject
 * rule on the whole command let it run; the line must be read with everything that was typed.
 */
const TARGET = 'rm -rf /tmp/gh-hiccup-target';
let f: ProxiedAsset;
let t: TestApp;
let admin: SessionClient;
let proxy: DelayProxy;
let target: ProxiedAsset['target'];
let adminUser: GatewayUser;

beforeAll(async () => {
  f = await proxiedAsset(0, { name: 'no rm hiccup', rejected: TARGET });
  ({ t, admin, proxy, target, adminUser } = f);
}, 60_000);
afterAll(() => f?.close());

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
      // The refusal's Ctrl+C and bash's new prompt come through the held-back link: on a busy machine
      // that takes longer than the fixture's default wait (an event awaited, not a time asserted).
      await term.waitFor(/gh\$ $/, from + TARGET.length, 30_000);
      proxy.hiccup([]);
    }
    // A refused line is recorded once the screen shows it dropped, a moment after the prompt the
    // test waited for: the rows are awaited, not read once.
    const rows = async () =>
      (
        (await admin.get(`/api/v1/terminal/commands/?session_id=${s.id}`)).json() as {
          input: string;
          risk_level: { value: number };
        }[]
      ).map((r) => [r.input, r.risk_level.value]);
    await expect.poll(rows).toEqual([
      [TARGET, RISK.reject],
      [TARGET, RISK.reject],
      [TARGET, RISK.reject],
    ]);
    await s.close();
  }, 60_000);
});
