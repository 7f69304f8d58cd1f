import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionClient, TestApp } from '../../../test-support/testApp.ts';
import { openShell, proxiedAsset, type GatewayUser, type ProxiedAsset } from '../../../test-support/gateway.ts';

/**
 * A far-away asset: a real OpenSSH behind a loopback TCP proxy that delays everything the sshd
 * sends by 600 ms (an intercontinental or satellite round trip). The gateway must wait for the
 * echo of the keys sent before reading a line at Enter, so the audit and the command filter rules
 * see the whole command, typed key by key or pasted; keys that are never echoed (`read -s`) are
 * neither recorded nor left hanging.
 */
const DELAY_MS = 600;
let f: ProxiedAsset;
let t: TestApp;
let admin: SessionClient;
let target: ProxiedAsset['target'];
let adminUser: GatewayUser;

beforeAll(async () => {
  f = await proxiedAsset(DELAY_MS, { name: 'no rm', rejected: 'rm -rf /tmp/gh-echo-target' });
  ({ t, admin, target, adminUser } = f);
}, 60_000);
afterAll(() => f?.close());

const inputsOf = async (sessionId: string) =>
  ((await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json() as Row[]).map((c) => [
    c.input,
    c.risk_level.value,
  ]);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
type Row = any;

describe('commands over a slow link', () => {
  it('records whole commands typed or pasted, rejects by the whole line, never records an unechoed secret', async () => {
    const { s, term } = await openShell(t.app, {
      user: adminUser,
      assetId: target.host.id,
      accountId: target.password.id,
      promptMs: 30_000,
    });
    const prompt = async (from: number) => term.waitFor('gh$ ', from + 1, 30_000);

    // Typed key by key, faster than the round trip: most of the echo is still on its way at Enter.
    let from = term.text.length;
    await term.type('echo hello\r', 40);
    await prompt(from);
    // Pasted whole, Enter in the same chunk.
    from = term.text.length;
    await term.type(['echo pasted line here\r']);
    await prompt(from);
    // A reject rule matching only the whole command (a cut one would pass) rejects it, typed or pasted.
    from = term.text.length;
    await term.type('rm -rf /tmp/gh-echo-target\r', 40);
    await term.waitFor('rejected', from, 30_000);
    await prompt(from);
    from = term.text.length;
    await term.type(['rm -rf /tmp/gh-echo-target\r']);
    await term.waitFor('rejected', from, 30_000);
    await prompt(from);
    // A secret read without echo (its prompt ends the output; the echoed line has it inside): typed key
    // by key, then pasted; neither is a command.
    from = term.text.length;
    await term.type(['read -s -p "Secret: " s; echo "got ${#s}"\r']);
    await term.waitFor(/Secret: $/, from, 30_000);
    from = term.text.length;
    await term.type('hunter2\r', 40);
    await term.waitFor('got 7', from, 30_000);
    await prompt(from);
    from = term.text.length;
    await term.type(['read -s -p "Secret: " s; echo "got ${#s}"\r']);
    await term.waitFor(/Secret: $/, from, 30_000);
    from = term.text.length;
    await term.type(['pasted-secret\r']);
    await term.waitFor('got 13', from, 30_000);
    await prompt(from);
    from = term.text.length;
    await term.type('echo after the secrets\r', 40);
    await prompt(from);
    await term.type(['exit\r']);
    await term.waitEnd(30_000);

    const read = 'read -s -p "Secret: " s; echo "got ${#s}"';
    expect(await inputsOf(s.id)).toEqual([
      ['echo hello', 0],
      ['echo pasted line here', 0],
      ['rm -rf /tmp/gh-echo-target', 5],
      ['rm -rf /tmp/gh-echo-target', 5],
      [read, 0],
      [read, 0],
      ['echo after the secrets', 0],
      ['exit', 0],
    ]);
  }, 120_000);
});
