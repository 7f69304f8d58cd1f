import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makePerm, makeUser, type Row } from '../../../../test-support/perms.ts';
import { commandRule, hostWithAccounts } from '../../../../test-support/gateway.ts';
import { type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { runSsh, userKeyPair, nativeSshApp } from '../../../../test-support/sshClients.ts';

/**
 * A command run through the native SSH port as a script runs one (`ssh <user>@<account>@<asset>@
 * <gatehouse> '<command>'`), with the real OpenSSH client and a real sshd asset: output, errors and
 * exit status as plain ssh gives them, the session, its one command and its input recorded, and an
 * auditor's kill reaching it. An exec is a shell command line with an input stream, so it needs the
 * upload and download actions (however `scp` is spelled, `cat > f` writes a file), and it is
 * refused while a reject or review command rule applies (`bash -s` runs what comes on its input).
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let port: number;
let target: { host: Row; password: Row; key: Row };
const key = userKeyPair();
const leeKey = userKeyPair();
let login: string;
let samId: string;

beforeAll(async () => {
  ({ sshd, port, t, admin, target } = await nativeSshApp());
  const sam = await makeUser(admin, 'sam');
  samId = sam.id;
  await t.deps.database.db
    .updateTable('users_user')
    .set({ public_key: key.publicKey })
    .where('id', '=', sam.id)
    .execute();
  await makePerm(admin, {
    users: [sam.id],
    assets: [target.host.id],
    accounts: ['@ALL', '@INPUT'],
    actions: ['connect', 'upload', 'download'],
  });
  login = `sam@${target.password.name}@${target.host.name}`;
  // lee may connect and download, not upload.
  const lee = await makeUser(admin, 'lee');
  await t.deps.database.db
    .updateTable('users_user')
    .set({ public_key: leeKey.publicKey })
    .where('id', '=', lee.id)
    .execute();
  await makePerm(admin, {
    users: [lee.id],
    assets: [target.host.id],
    accounts: ['@ALL'],
    actions: ['connect', 'download'],
  });
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

const sessionsOf = async (username: string): Promise<Row[]> =>
  ((await admin.get('/api/v1/terminal/sessions/?login_from=ST&order=-date_start')).json() as Row[]).filter((s) =>
    s.user.includes(`(${username})`),
  );
const sessionsOfSam = () => sessionsOf('sam');
const commandsOf = async (sessionId: string): Promise<Row[]> =>
  (await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}`)).json();

async function until<T>(what: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The finished session of `username` that ran `command`, and that command's record. */
const recordedCommand = (username: string, command: string) =>
  until(async () => {
    for (const session of await sessionsOf(username)) {
      if (!session.is_finished) continue;
      const cmd = (await commandsOf(session.id)).find((c) => c.input === command);
      if (cmd) return { session, cmd };
    }
    return undefined;
  });

/** A finished session's recording (asciicast lines). */
async function replayOf(sessionId: string): Promise<string> {
  const row = await t.deps.database.db
    .selectFrom('terminal_session')
    .select('replay_path')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return gunzipSync(fs.readFileSync(path.join(t.dataDir, row.replay_path))).toString('utf8');
}

describe('a command by SSH exec', () => {
  it('runs on the account with stdout, stderr and the exit status apart, and is recorded with its output', async () => {
    const command = 'echo out-$((6*7)); echo err-1 >&2; exit 3';
    const r = await runSsh(port, key.file, login, command);
    expect(r).toEqual({ code: 3, out: 'out-42\n', err: 'err-1\n' });
    // Its input is the client's stdin, its end the client's end of input.
    expect(await runSsh(port, key.file, login, 'wc -c', { input: 'hello world\n' })).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^\s*12\n$/),
    });

    // `ssh -t`: it runs under a terminal on the asset.
    const tty = await runSsh(port, key.file, login, 'tty', { tty: true });
    expect(tty.code, tty.err).toBe(0);
    expect(tty.out).toMatch(/^\/dev\/pts\/\d+\r\n$/);
    const { session: finished, cmd } = await recordedCommand('sam', command);
    expect(finished).toMatchObject({
      login_from: { value: 'ST' },
      protocol: 'ssh',
      is_success: true,
      has_command: true,
      has_replay: true,
      command_amount: 1,
      asset: expect.stringContaining(target.host.name),
    });
    expect(cmd).toMatchObject({ input: command, risk_level: { value: 0 } });
    expect(cmd.output).toContain('out-42');
    expect(cmd.output).toContain('err-1');
    expect(await replayOf(finished.id)).toContain('out-42\\r\\n');
  }, 40_000);

  it('passes its input on and records it in the replay; with upload and download, cat > file writes', async () => {
    const file = path.join(sshd.home, `written-${Date.now()}`);
    const command = `cat > ${file}`;
    expect(await runSsh(port, key.file, login, command, { input: 'hello from stdin\n' })).toEqual({
      code: 0,
      out: '',
      err: '',
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('hello from stdin\n');
    const { session, cmd } = await recordedCommand('sam', command);
    expect(session).toMatchObject({ is_success: true, has_replay: true });
    expect(cmd.risk_level).toMatchObject({ value: 0 });
    expect(await replayOf(session.id)).toContain('"i","hello from stdin\\n"]');
  }, 40_000);

  it('refuses every exec of a user without the upload action (scp however spelled, cat > file) and records the refusals', async () => {
    const dir = fs.mkdtempSync(path.join(sshd.home, 'lee-'));
    const commands = [
      `/usr/bin/scp -t ${dir}`,
      `"scp" -t ${dir}`,
      `s\\cp -t ${dir}`,
      `env scp -t ${dir}`,
      `exec scp -t ${dir}`,
      `SCP=1 scp -t ${dir}`,
      `sh -c 'scp -t ${dir}'`,
      `cat > ${dir}/by-cat`,
    ];
    const leeLogin = `lee@${target.password.name}@${target.host.name}`;
    for (const [i, command] of commands.entries()) {
      // What legacy scp's sending side says: a file of 6 bytes named by-scp-<i>.
      const input = command.startsWith('cat') ? 'hello\n' : `C0644 6 by-scp-${i}\nhello\n\0`;
      const r = await runSsh(port, leeKey.file, leeLogin, command, { input });
      expect(r, command).toMatchObject({ code: 1, out: '' });
      expect(r.err, command).toContain('needs both the upload and the download action');
    }
    expect(fs.readdirSync(dir)).toEqual([]);
    for (const command of commands) {
      const { session, cmd } = await recordedCommand('lee', command);
      expect(session).toMatchObject({ is_success: false, comment: expect.stringContaining('upload') });
      expect(cmd).toMatchObject({ risk_level: { value: 5 }, output: expect.stringContaining('upload') });
    }
  }, 60_000);

  it('refuses every exec while a reject or review rule applies to the account: bash -s would run its input unjudged', async () => {
    const ruled = (await hostWithAccounts(admin, sshd)).host;
    const reviewed = (await hostWithAccounts(admin, sshd)).host;
    const accounts = ['@ALL'];
    await makePerm(admin, { users: [samId], assets: [ruled.id, reviewed.id], accounts, actions: ['all'] });
    await commandRule(admin, ruled.id, 'no touching', 'touch');
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    await commandRule(admin, reviewed.id, 'review dates', 'date', 'review', [adminId]);
    const file = path.join(sshd.home, `bash-s-${Date.now()}`);
    const viaInput = await runSsh(port, key.file, `sam@${target.password.name}@${ruled.name}`, 'bash -s', {
      input: `touch ${file}\n`,
    });
    expect(viaInput).toMatchObject({ code: 1, out: '' });
    expect(viaInput.err).toContain('Command rules apply to this account (rule "no touching")');
    expect(fs.existsSync(file)).toBe(false);
    // A line no rule would catch is refused too: the rules need an interactive session.
    const harmless = await runSsh(port, key.file, `sam@${target.password.name}@${reviewed.name}`, 'echo fine');
    expect(harmless).toMatchObject({ code: 1, out: '' });
    expect(harmless.err).toContain('(rule "review dates")');
    for (const command of ['bash -s', 'echo fine']) {
      const { session, cmd } = await recordedCommand('sam', command);
      expect(session).toMatchObject({ is_success: false });
      expect(cmd.risk_level).toMatchObject({ value: 5 });
    }
  }, 60_000);

  it('refuses copies aimed at Gatehouse itself, a missing target, a virtual account', async () => {
    expect((await runSsh(port, key.file, 'sam', 'rsync --server -e.LsfxC . /tmp/')).err).toContain(
      'rsync is not supported',
    );
    expect((await runSsh(port, key.file, 'sam', 'scp -t /tmp/')).err).toContain('Legacy scp');
    const bare = await runSsh(port, key.file, 'sam', 'id');
    expect(bare.code).toBe(1);
    expect(bare.err).toContain('Name the asset to run a command on');
    const input = await runSsh(port, key.file, `sam@@INPUT@${target.host.name}`, 'id');
    expect(input.code).toBe(1);
    expect(input.err).toContain('asks for its login when it connects');
  }, 40_000);

  it('ends when an auditor kills its session, saying so', async () => {
    // Killed while it runs on the asset (the file says it started).
    const started = path.join(sshd.home, `started-${Date.now()}`);
    const running = runSsh(port, key.file, login, `echo > ${started}; sleep 30; echo never`);
    await until(async () => (fs.existsSync(started) ? true : undefined));
    const live = await until(async () => (await sessionsOfSam()).find((s) => !s.is_finished));
    const kill = await admin.post('/api/v1/terminal/tasks/kill-session/', [live.id]);
    expect(kill.json()).toEqual({ ok: [live.id] });
    const r = await running;
    expect(r.code).not.toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toContain('terminated');
    await until(async () =>
      (await sessionsOfSam()).find((s) => s.id === live.id && s.is_finished) ? true : undefined,
    );
  }, 40_000);
});
