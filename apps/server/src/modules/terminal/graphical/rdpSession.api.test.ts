import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import type { Row } from '../../../../test-support/perms.ts';
import { startRdpServer, type RdpServer } from '../../../../test-support/rdpServer.ts';
import { graphicalClient, graphicalToken, graphicalUser, rdpHost } from '../../../../test-support/graphicalAsset.ts';
import { gatewayOf } from '../gatewayInstance.ts';
import type { GraphicalSession } from './graphicalSession.ts';

/**
 * An RDP desktop in the browser through the gateway (docs/graphical.md, "RDP"): a real xrdp on
 * loopback (test-support/rdpServer.ts: its VNC module in front of a TigerVNC desktop with an
 * xterm, so no PAM login is needed), reached by a per-session Xvfb + xfreerdp + x11vnc whose RFB the
 * gateway relays. Keys typed in the browser run in the desktop's shell; the password is never on a
 * helper's command line; a browser that goes away mid-session leaves no helper process behind.
 */
let t: TestApp;
let admin: SessionClient;
let rdp: RdpServer;
let base: string;
let asset: Row;
let account: Row;

beforeAll(async () => {
  rdp = await startRdpServer();
  t = await createTestApp();
  admin = await adminClient(t.app);
  ({ host: asset, account } = await rdpHost(admin, rdp.port, rdp.username, rdp.password));
  base = await listenOnLoopback(t.app);
}, 30_000);
afterAll(async () => {
  await t?.close();
  rdp?.stop();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('an RDP session through the gateway', () => {
  it('types into the remote desktop, keeps the password off command lines and cleans up after a vanished browser', async () => {
    const u = await graphicalUser(t, admin, asset.id, ['connect', 'upload', 'download']);
    const c = graphicalClient(base, await graphicalToken(u.client, asset.id, account.name, 'rdp'));
    await c.waitFor(() => c.connected() && c.updates > 0, 'the desktop', 30_000);
    const id = c.control.find((m) => m.type === 'CONNECT')!.id!;
    const session = gatewayOf(t.app).registry.get(id) as GraphicalSession;
    const pids = session.helperPids();
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).not.toContain(rdp.password);
    const rdpCmd = pids
      .map((p) => fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0'))
      .find((a) => a[0]?.endsWith('xfreerdp'));
    expect(rdpCmd).toEqual(expect.arrayContaining(['/u:desktop', '/from-stdin:force']));
    expect(rdpCmd!.some((a) => a.startsWith('/drive:Gatehouse,'))).toBe(true);

    // The xterm on the far desktop gets the keys (browser -> gateway -> x11vnc -> xfreerdp -> xrdp -> desktop).
    await c.waitFor(() => c.bright() > 0, 'something drawn', 30_000);
    c.pointer(200, 100, 1);
    c.pointer(200, 100, 0);
    // Keys reach the far desktop once the helper chain has settled (docs/graphical.md, "RDP"): an
    // Enter that draws a new prompt says so.
    const lit = c.bright();
    for (let i = 0; i < 15 && c.bright() <= lit; i++) {
      c.typeLine('');
      const seen = c.updates;
      await c.waitFor(() => c.updates > seen + 1 || c.bright() > lit, 'a redraw', 2_000).catch(() => undefined);
    }
    c.typeLine('echo over-rdp > rdp-marker');
    const marker = path.join(rdp.desktop.dir, 'rdp-marker');
    await expect
      .poll(() => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''), { timeout: 20_000 })
      .toBe('over-rdp\n');

    // The browser vanishes without a goodbye: the session ends and every helper with it.
    c.ws.terminate();
    await expect.poll(() => pids.filter(alive), { timeout: 15_000 }).toEqual([]);
    const row = async () => (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json() as Row;
    await expect.poll(async () => (await row()).is_finished, { timeout: 10_000 }).toBe(true);
    expect(await row()).toMatchObject({ protocol: 'rdp', is_success: true, has_replay: true });
  });
});

describe('the first moments of an RDP session', () => {
  it('loses no key typed the moment the desktop connects', async () => {
    const u = await graphicalUser(t, admin, asset.id, ['connect']);
    const c = graphicalClient(base, await graphicalToken(u.client, asset.id, account.name, 'rdp'));
    // No wait for a picture or a prompt: a click on the xterm and a line, at once.
    await c.waitFor(() => c.connected(), 'the RFB handshake', 30_000);
    c.pointer(200, 100, 1);
    c.pointer(200, 100, 0);
    c.typeLine('echo first-keys > rdp-early');
    const marker = path.join(rdp.desktop.dir, 'rdp-early');
    await expect
      .poll(() => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''), { timeout: 30_000 })
      .toBe('first-keys\n');
    c.ws.close();
  }, 90_000);
});

describe('helpers of a gateway that died', () => {
  it('are ended and their directory removed when an instance starts', async () => {
    const { spawn } = await import('node:child_process');
    const { reapOrphanedHelpers } = await import('./rdpBridge.ts');
    const os = await import('node:os');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-reap-'));
    // A "helper" in its own process group, and the directory a dead gateway (a pid that is not running) left.
    const helper = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    const dead = spawn('true');
    await new Promise((r) => dead.once('exit', r));
    const dir = fs.mkdtempSync(path.join(tmp, 'gh-rdp-'));
    fs.writeFileSync(path.join(dir, 'owner'), `${dead.pid}\n${helper.pid}`);
    // One of a gateway still running is left alone.
    const live = fs.mkdtempSync(path.join(tmp, 'gh-rdp-'));
    fs.writeFileSync(path.join(live, 'owner'), `${process.pid}\n${helper.pid}`);
    const exited = new Promise((r) => helper.once('exit', r));
    expect(reapOrphanedHelpers(tmp)).toEqual([helper.pid]);
    await exited;
    expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
