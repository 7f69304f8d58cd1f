import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import type { Row } from '../../../../test-support/perms.ts';
import { startVncServer, type VncServer } from '../../../../test-support/vncServer.ts';
import { gatewayOf } from '../gatewayInstance.ts';
import type { GraphicalSession } from './graphicalSession.ts';
import { monitorClient } from '../../../../test-support/webTerminal.ts';
import { graphicalClient, graphicalToken, graphicalUser, vncHost } from '../../../../test-support/graphicalAsset.ts';
import { startS3 } from '../../../../test-support/s3.ts';
import { partKey } from '../storage/replayStream.ts';
import { DEFAULT_REPLAY_STORAGE_ID } from '../../../platform/db/migrations/m1250_terminal_storages.ts';

/**
 * A VNC desktop in the browser through the gateway (docs/graphical.md): a real TigerVNC server
 * (test-support/vncServer.ts, an xterm running sh on it) behind VNC Authentication, reached with
 * the vault's password while the browser's side offers no authentication; keys typed reach the
 * shell, the screen comes back, the stream is recorded and replayable, and the session is listed,
 * refused and killed as an SSH session is.
 */
let t: TestApp;
let admin: SessionClient;
let vnc: VncServer;
let base: string;
let asset: Row;
let account: Row;

beforeAll(async () => {
  vnc = await startVncServer();
  t = await createTestApp({ LIMIT_GRAPHICAL_SESSIONS: '4', REPLAY_STREAM_MS: '200' });
  admin = await adminClient(t.app);
  ({ host: asset, account } = await vncHost(admin, vnc.port, vnc.password));
  base = await listenOnLoopback(t.app);
}, 30_000);
afterAll(async () => {
  await t?.close();
  vnc?.stop();
});

async function finished(id: string): Promise<Row> {
  let row: Row = {};
  await expect
    .poll(async () => (row = (await admin.get(`/api/v1/terminal/sessions/${id}/`)).json() as Row).is_finished, {
      timeout: 10_000,
    })
    .toBe(true);
  return row;
}

describe('a VNC session through the gateway', () => {
  it('types into the desktop, shows the screen, records the stream and replays it', async () => {
    const u = await graphicalUser(t, admin, asset.id);
    const c = graphicalClient(base, await graphicalToken(u.client, asset.id, account.name));
    await c.waitFor(() => c.connected() && c.updates > 0, 'the first screen');
    const connect = c.control.find((m) => m.type === 'CONNECT')!;
    expect(connect.data).toMatchObject({ protocol: 'vnc', clipboard: { copy: false, paste: false } });
    expect([c.width, c.height]).toEqual([vnc.width, vnc.height]);
    // The xterm's prompt is on the screen; what is typed runs in its shell and shows.
    await c.waitFor(() => c.bright(0, 0, 400, 60) > 0, 'the prompt');
    const before = c.bright(0, 0, 800, 120);
    c.typeLine('echo typed-through > marker');
    await expect
      .poll(() => fs.existsSync(path.join(vnc.dir, 'marker')) && fs.readFileSync(path.join(vnc.dir, 'marker'), 'utf8'))
      .toBe('typed-through\n');
    await c.waitFor(() => c.bright(0, 0, 800, 120) > before, 'the typed line on the screen');
    c.ws.close();
    await c.closed;

    const session = await finished(connect.id!);
    expect(session).toMatchObject({
      protocol: 'vnc',
      asset_id: asset.id,
      user_id: u.id,
      is_success: true,
      has_replay: true,
    });
    expect(session.account).toBe(`${account.name}(desktop)`);
    const replay = (await admin.get(`/api/v1/terminal/sessions/${connect.id}/replay/`)).json() as Row;
    expect(replay.type).toBe('rfb');
    const lines = gunzipSync((await admin.get(replay.src)).rawPayload)
      .toString('utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: 2, kind: 'rfb' });
    const events = lines.slice(1).map((l) => JSON.parse(l) as [number, string, string]);
    expect(events.every(([, k]) => k === 'd')).toBe(true);
    // The recording starts with ServerInit (the screen size) and holds what the browser got.
    const first = Buffer.from(events[0]![2], 'base64');
    expect([first.readUInt16BE(0), first.readUInt16BE(2)]).toEqual([vnc.width, vnc.height]);
    const total = events.reduce((n, [, , b]) => n + Buffer.from(b, 'base64').length, 0);
    expect(total).toBe(c.bytes - 12 - 2 - 4);
    // Downloadable as the terminal replays are: a tar of the recording and the session's facts.
    const tar = (await admin.get(replay.download_url)).rawPayload.toString('latin1');
    expect(tar).toContain(`${connect.id}.cast.gz`);
    expect(tar).toContain(`${connect.id}.json`);
  });

  it('refuses a wrong vault password with the reason, recorded as a failed session', async () => {
    const { host, account: wrong } = await vncHost(admin, vnc.port, 'not-the-password');
    const u = await graphicalUser(t, admin, host.id);
    const c = graphicalClient(base, await graphicalToken(u.client, host.id, wrong.name));
    await c.closed;
    expect(c.control.find((m) => m.type === 'TERMINAL_ERROR')?.err).toMatch(/refused the account's password/);
    const rows = (await admin.get(`/api/v1/terminal/sessions/?asset_id=${host.id}`)).json() as Row[];
    expect(rows).toMatchObject([{ protocol: 'vnc', is_success: false, is_finished: true }]);
  });

  it('is killed from the audit and refuses sessions beyond the instance limit', async () => {
    const u = await graphicalUser(t, admin, asset.id);
    const open = [];
    for (let i = 0; i < 4; i++)
      open.push(graphicalClient(base, await graphicalToken(u.client, asset.id, account.name)));
    for (const c of open) await c.waitFor(() => c.connected(), 'a session');
    const [a, ...others] = open as [ReturnType<typeof graphicalClient>, ...ReturnType<typeof graphicalClient>[]];
    const refused = graphicalClient(base, await graphicalToken(u.client, asset.id, account.name));
    await refused.closed;
    expect(refused.control.find((m) => m.type === 'TERMINAL_ERROR')?.err).toMatch(/already holds 4 graphical sessions/);
    const id = a.control.find((m) => m.type === 'CONNECT')!.id!;
    const kill = await admin.post('/api/v1/terminal/tasks/kill-session/', [id]);
    expect(kill.statusCode, kill.body).toBeLessThan(300);
    await a.closed;
    expect(a.control.at(-1)).toEqual({ type: 'CLOSE', reason: 'killed' });
    await finished(id);
    // The slot is free again.
    const c = graphicalClient(base, await graphicalToken(u.client, asset.id, account.name));
    await c.waitFor(() => c.connected(), 'c');
    for (const o of [...others, c]) o.ws.close();
    for (const o of [...others, c]) await finished(o.control.find((m) => m.type === 'CONNECT')!.id!);
  });

  it('lets the clipboard cross only in the directions the permission allows', async () => {
    const both = await graphicalUser(t, admin, asset.id, ['connect', 'copy', 'paste']);
    const none = await graphicalUser(t, admin, asset.id, ['connect']);
    const withBoth = graphicalClient(base, await graphicalToken(both.client, asset.id, account.name));
    const withNone = graphicalClient(base, await graphicalToken(none.client, asset.id, account.name));
    const clients = [withBoth, withNone];
    for (const c of clients) await c.waitFor(() => c.connected() && c.updates > 0, 'a session');
    const file = (name: string) => path.join(vnc.dir, name);
    /** The browser's clipboard, then a middle click in the xterm: the server's selection pasted into the shell. */
    const pasteIn = (c: typeof withBoth, text: string) => {
      c.paste(text);
      c.pointer(200, 100, 0);
      c.pointer(200, 100, 2);
      c.pointer(200, 100, 0);
    };
    pasteIn(withNone, 'echo crossed > clip-refused\n');
    pasteIn(withBoth, 'echo crossed > clip-ok\n');
    // The shell runs the pasted lines in order: once the allowed one ran, the refused one never came.
    await expect.poll(() => fs.existsSync(file('clip-ok')), { timeout: 10_000 }).toBe(true);
    expect(fs.existsSync(file('clip-refused'))).toBe(false);
    // Selecting text in the xterm (a drag) gives the server a selection it offers every client.
    withNone.pointer(2, 4, 1);
    withNone.pointer(300, 4, 1);
    withNone.pointer(300, 4, 0);
    await withBoth.waitFor(() => withBoth.clipboard.some((x) => x.length > 0), 'the selection with copy');
    // A full-screen update asked now comes after any clipboard the server sent before it.
    const seen = withNone.updates;
    withNone.refresh();
    await withNone.waitFor(() => withNone.updates > seen, 'the refresh');
    expect(withNone.clipboard).toEqual([]);
    const ids = clients.map((c) => c.control.find((m) => m.type === 'CONNECT')!.id!);
    for (const c of clients) c.ws.close();
    for (const id of ids) await finished(id);
  });

  it('ends at the idle time and at the maximum session time', async () => {
    const user = { id: 'u-limits', name: 'Limits', username: 'limits' };
    const common = {
      user,
      protocol: 'vnc' as const,
      assetId: asset.id as string,
      accountId: account.id as string,
      lang: 'en' as const,
      loginFrom: 'WT' as const,
      remoteAddr: '127.0.0.1',
      clipboard: { copy: false, paste: false },
      drive: { upload: false, download: false },
      width: 800,
      height: 600,
    };
    for (const [limits, reason] of [
      [{ idleMs: 300 }, 'idle'],
      [{ maxMs: 300 }, 'max_time'],
    ] as const) {
      const s = (await gatewayOf(t.app).openGraphical({ ...common, ...limits }))!;
      const ended = new Promise((r) => s.once('end', r));
      expect(await ended).toBe(reason);
      await finished(s.id);
    }
  });

  it('is watched live from the audit (the stream from its start, then as it goes) and paused', async () => {
    const u = await graphicalUser(t, admin, asset.id);
    const c = graphicalClient(base, await graphicalToken(u.client, asset.id, account.name));
    await c.waitFor(() => c.connected() && c.updates > 0, 'the session');
    const id = c.control.find((m) => m.type === 'CONNECT')!.id!;
    const m = monitorClient(base, admin.jar.header(), id);
    await m.waitFor(() => m.msgs.some((x) => x.type === 'TERMINAL_DATA'), 'the stream so far');
    expect((m.msgs.find((x) => x.type === 'CONNECT')!.data as Row).session.protocol).toBe('vnc');
    const first = JSON.parse(String(m.msgs.find((x) => x.type === 'TERMINAL_DATA')!.data)) as {
      rfb_from_start: string;
    };
    const sofar = Buffer.from(first.rfb_from_start, 'base64');
    expect([sofar.readUInt16BE(0), sofar.readUInt16BE(2)]).toEqual([vnc.width, vnc.height]);
    const before = m.msgs.length;
    // Paused: keys do not reach the desktop; resumed, they do again (the shell runs lines in order).
    const lock = (task_name: string) =>
      admin.post('/api/v1/terminal/tasks/toggle-lock-session/', { session_id: id, task_name });
    expect((await lock('lock_session')).statusCode).toBeLessThan(300);
    expect(((await admin.get(`/api/v1/terminal/sessions/${id}/`)).json() as Row).is_locked).toBe(true);
    const live = gatewayOf(t.app).registry.get(id) as GraphicalSession;
    await c.waitFor(() => live.isLocked, 'the lock to reach the session');
    c.typeLine('echo locked > lock-marker');
    expect((await lock('unlock_session')).statusCode).toBeLessThan(300);
    await c.waitFor(() => !live.isLocked, 'the unlock to reach the session');
    c.typeLine('echo after > after-marker');
    await expect.poll(() => fs.existsSync(path.join(vnc.dir, 'after-marker'))).toBe(true);
    expect(fs.existsSync(path.join(vnc.dir, 'lock-marker'))).toBe(false);
    // What the typing drew reached the watcher too.
    await m.waitFor(() => m.msgs.slice(before).some((x) => x.type === 'TERMINAL_DATA'), 'live updates');
    c.ws.close();
    await m.closed;
  });

  it('streams the recording to the default S3 replay storage while it runs and moves it there at the end', async () => {
    const s3 = await startS3();
    try {
      const storage = await admin.post('/api/v1/terminal/replay-storages/', {
        name: 'graphical-s3',
        type: 's3',
        is_default: true,
        meta: { BUCKET: s3.bucket, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey, ENDPOINT: s3.endpoint },
      });
      expect(storage.statusCode).toBe(201);
      const u = await graphicalUser(t, admin, asset.id);
      const c = graphicalClient(base, await graphicalToken(u.client, asset.id, account.name));
      await c.waitFor(() => c.connected() && c.updates > 0, 'the first screen');
      const id = c.control.find((m) => m.type === 'CONNECT')!.id!;
      const row = await t.deps.database.db
        .selectFrom('terminal_session')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      // While it runs, the screen so far is in the store: the first part starts with the header.
      // The S3 server writes an object to its disk as it arrives: read it once it is whole.
      const firstLine = () => {
        const part = s3.object(partKey(row.replay_path, 1));
        try {
          return part ? JSON.parse(gunzipSync(part).toString().split('\n')[0]!) : undefined;
        } catch {
          return undefined;
        }
      };
      await expect.poll(firstLine).toMatchObject({ kind: 'rfb' });
      c.ws.close();
      await c.closed;
      await finished(id);
      const ended = await t.deps.database.db
        .selectFrom('terminal_session')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(ended).toMatchObject({ replay_storage_id: storage.json().id, replay_path: `${row.replay_path}.gz` });
      // In the store, not on this instance's disk, and the streamed parts are gone.
      expect(fs.existsSync(path.join(t.dataDir, ended.replay_path))).toBe(false);
      expect(s3.object(partKey(row.replay_path, 1))).toBeUndefined();
      const replay = (await admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json() as Row;
      expect(replay.type).toBe('rfb');
      const events = gunzipSync((await admin.get(replay.src)).rawPayload)
        .toString('utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as [number, string, string]);
      const total = events.reduce((n, [, , b]) => n + Buffer.from(b, 'base64').length, 0);
      expect(total).toBe(c.bytes - 12 - 2 - 4);
    } finally {
      // The built-in storage is the default again for whatever runs after.
      await admin.patch(`/api/v1/terminal/replay-storages/${DEFAULT_REPLAY_STORAGE_ID}/`, { is_default: true });
      await s3.stop();
    }
  });
});
