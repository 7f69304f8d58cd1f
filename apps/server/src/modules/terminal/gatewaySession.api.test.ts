import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { gatewayOf } from './gatewayInstance.ts';
import type { OpenSessionOptions } from './gateway/gatewaySession.ts';
import { hostWithAccounts, KEY, TestTerminal } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * GatewaySession against a real OpenSSH with a bash login shell: commands read from the
 * terminal (line editing, history, vi), the recording, the session and command records and
 * their API, host keys trusted on first use.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any; key: any };
let adminUser: { id: string; name: string; username: string };

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  adminUser = await t.deps.database.db
    .selectFrom('users_user')
    .select(['id', 'name', 'username'])
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

function options(accountId: string, more: Partial<OpenSessionOptions> = {}): OpenSessionOptions {
  return {
    user: adminUser,
    assetId: target.host.id,
    accountId,
    lang: 'en',
    loginFrom: 'WT',
    remoteAddr: '127.0.0.9',
    cols: 100,
    rows: 30,
    ...more,
  };
}

const commandsOf = async (sessionId: string) =>
  (await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json() as {
    input: string;
    output: string;
    risk_level: { value: number };
  }[];

describe('a terminal session through the gateway', () => {
  it('runs commands typed, edited (also in vi mode), recalled from history and in vi, and records them', async () => {
    const s = await gatewayOf(t.app).openSession(options(target.password.id));
    const term = new TestTerminal(s.stream);
    await term.waitFor('gh$ ');
    await term.run('echo hello');
    // Line editing: a missing letter inserted after moving the cursor back.
    await term.type('echo wrld');
    await term.type([KEY.left, KEY.left, KEY.left, 'o']);
    await term.run('');
    expect(term.text).toMatch(/[^ ]world\r\n/);
    // History recall: Up brings back the last command.
    await term.type(KEY.up);
    await term.run('');
    // bash's vi mode: Escape, back a word, change it.
    await term.run('set -o vi');
    await term.type('echo xyz');
    await term.type([KEY.esc, 'b', 'c', 'w']);
    await term.run('done');
    // A full-screen program: what is typed inside vi is no command.
    const file = path.join(sshd.home, 'note.txt');
    await term.type(`vi ${file}\r`);
    await term.waitFor(/note\.txt/, term.text.length - 200);
    await new Promise((r) => setTimeout(r, 300));
    await term.type(['i', 'n', 'o', 't', 'e', KEY.esc]);
    await term.run(':wq');
    expect(fs.readFileSync(file, 'utf8')).toBe('note\n');
    await term.type('exit\r');
    await term.waitEnd();

    const cmds = await commandsOf(s.id);
    expect(cmds.map((c) => c.input)).toEqual([
      'echo hello',
      'echo world',
      'echo world',
      'set -o vi',
      'echo done',
      `vi ${file}`,
      'exit',
    ]);
    expect(cmds[0]!.output).toBe('hello');
    expect(cmds[4]!.output).toBe('done');
    expect(cmds.every((c) => c.risk_level.value === 0)).toBe(true);

    const row = (await admin.get(`/api/v1/terminal/sessions/${s.id}/`)).json();
    expect(row).toMatchObject({
      user: 'Administrator(admin)',
      user_id: adminUser.id,
      asset_id: target.host.id,
      account_id: target.password.id,
      protocol: 'ssh',
      login_from: { value: 'WT', label: 'Web Terminal' },
      type: { value: 'normal' },
      remote_addr: '127.0.0.9',
      is_success: true,
      is_finished: true,
      has_replay: true,
      has_command: true,
      command_amount: 7,
      can_replay: true,
      can_terminate: false,
    });
    expect(row.terminal.id).toBe(gatewayOf(t.app).id);
    expect(row.date_end).toBeTruthy();

    // The recording: asciicast v2, compressed at the end, holding what the user saw.
    const replay = (await admin.get(`/api/v1/terminal/sessions/${s.id}/replay/`)).json();
    expect(replay).toMatchObject({
      type: 'asciicast',
      download_url: `/api/v1/terminal/sessions/${s.id}/replay/download/`,
    });
    const file2 = await admin.get(replay.src);
    expect(file2.statusCode).toBe(200);
    const lines = gunzipSync(file2.rawPayload).toString('utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: 2, width: 100, height: 30 });
    const shown = lines
      .slice(1)
      .map((l) => JSON.parse(l) as [number, string, string])
      .map((e) => e[2])
      .join('');
    expect(shown).toContain('world');
    expect(shown).toBe(term.text);
    const tar = await admin.get(replay.download_url);
    expect(tar.headers['content-type']).toBe('application/x-tar');
    expect(tar.rawPayload.subarray(0, 100).toString('utf8')).toContain(`${s.id}.cast.gz`);
  }, 60_000);

  it('filters the lists as the contract says', async () => {
    const list = (await admin.get('/api/v1/terminal/sessions/?login_from=WT&is_finished=1')).json();
    expect(list.length).toBeGreaterThan(0);
    expect((await admin.get('/api/v1/terminal/sessions/?login_from=ST')).json()).toEqual([]);
    expect((await admin.get('/api/v1/terminal/sessions/?is_finished=x')).statusCode).toBe(400);
    const gw = gatewayOf(t.app);
    expect((await admin.get(`/api/v1/terminal/sessions/?terminal=${encodeURIComponent(gw.name)}`)).json().length).toBe(
      list.length,
    );
    expect((await admin.get('/api/v1/terminal/commands/?input=wor&risk_level=0')).json().length).toBe(2);
    expect((await admin.get('/api/v1/terminal/commands/?user=Admin')).json().length).toBeGreaterThan(0);
    expect((await admin.get('/api/v1/terminal/commands/?date_from=2999-01-01')).json()).toEqual([]);
    expect((await admin.get('/api/v1/terminal/commands/?date_from=nonsense')).statusCode).toBe(400);
    const terms = (await admin.get('/api/v1/terminal/terminals/')).json();
    const mine = terms.find((x: { id: string }) => x.id === gw.id);
    expect(mine).toMatchObject({ name: gw.name, is_alive: true, session_online: 0 });
    expect(['normal', 'high', 'critical']).toContain(mine.load.value);
    expect((await admin.get('/api/v1/terminal/terminals/?load=offline')).json()).toEqual([]);
    expect((await admin.get('/api/v1/audits/ftp-logs/')).json()).toEqual([]);
  });

  it('logs in with the key account, records the host key, and refuses a changed one', async () => {
    const s = await gatewayOf(t.app).openSession(options(target.key.id));
    const term = new TestTerminal(s.stream);
    await term.waitFor('gh$ ');
    await s.close();
    const key = await t.deps.database.db
      .selectFrom('terminal_hostkey')
      .selectAll()
      .where('asset_id', '=', target.host.id)
      .executeTakeFirstOrThrow();
    expect(key).toMatchObject({ host: '127.0.0.1', port: sshd.port, key_type: 'ssh-ed25519' });
    expect(key.fingerprint).toBe(sshd.hostKeyFingerprint);
    await t.deps.database.db
      .updateTable('terminal_hostkey')
      .set({ fingerprint: 'SHA256:somethingelse' })
      .where('id', '=', key.id)
      .execute();
    await expect(gatewayOf(t.app).openSession(options(target.key.id))).rejects.toThrow(
      `The host key of 127.0.0.1:${sshd.port} has changed (recorded SHA256:somethingelse, offered ${sshd.hostKeyFingerprint})`,
    );
    const failed = (await admin.get('/api/v1/terminal/sessions/?is_success=0')).json();
    expect(failed[0]).toMatchObject({ is_finished: true, account_id: target.key.id });
    expect(failed[0].comment).toContain('has changed');
    await t.deps.database.db.deleteFrom('terminal_hostkey').where('id', '=', key.id).execute();
  }, 30_000);

  it('ends an idle session and one past its maximum time', async () => {
    const idle = await gatewayOf(t.app).openSession(options(target.password.id, { idleMs: 600 }));
    const a = new TestTerminal(idle.stream);
    await a.waitEnd();
    expect(a.text).toContain('No input for 0.01 minutes: the session is closed.');
    const long = await gatewayOf(t.app).openSession(options(target.password.id, { maxMs: 800 }));
    const b = new TestTerminal(long.stream);
    await b.waitFor('gh$ ');
    await b.type('echo still here\r');
    await b.waitEnd();
    expect(b.text).toContain('The maximum session time of 0 hours is reached');
  }, 30_000);
});
