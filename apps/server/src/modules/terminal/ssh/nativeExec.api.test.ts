import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makePerm, makeUser, type Row } from '../../../../test-support/perms.ts';
import { put, signIn, T } from '../../../../test-support/tickets.ts';
import { commandRule } from '../../../../test-support/gateway.ts';
import { type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { runSsh, userKeyPair, nativeSshApp } from '../../../../test-support/sshClients.ts';

/**
 * A command run through the native SSH port as a script runs one (`ssh <user>@<account>@<asset>@
 * <gatehouse> '<command>'`), with the real OpenSSH client and a real sshd asset: output, errors and
 * exit status as plain ssh gives them, the session and its one command recorded, the command
 * filter rules applied before the asset sees anything, and an auditor's kill reaching it.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let port: number;
let target: { host: Row; password: Row; key: Row };
const key = userKeyPair();
let login: string;

beforeAll(async () => {
  ({ sshd, port, t, admin, target } = await nativeSshApp());
  const sam = await makeUser(admin, 'sam');
  await t.deps.database.db
    .updateTable('users_user')
    .set({ public_key: key.publicKey })
    .where('id', '=', sam.id)
    .execute();
  await makePerm(admin, {
    users: [sam.id],
    assets: [target.host.id],
    accounts: ['@ALL', '@INPUT'],
    actions: ['connect'],
  });
  login = `sam@${target.password.name}@${target.host.name}`;
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

const sessionsOfSam = async (): Promise<Row[]> =>
  ((await admin.get('/api/v1/terminal/sessions/?login_from=ST&order=-date_start')).json() as Row[]).filter((s) =>
    s.user.includes('(sam)'),
  );
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
    const finished = await until(async () => {
      for (const s of await sessionsOfSam())
        if (s.is_finished && (await commandsOf(s.id)).some((c) => c.input === command)) return s;
      return undefined;
    });
    expect(finished).toMatchObject({
      login_from: { value: 'ST' },
      protocol: 'ssh',
      is_success: true,
      has_command: true,
      has_replay: true,
      command_amount: 1,
      asset: expect.stringContaining(target.host.name),
    });
    const cmd = (await commandsOf(finished.id))[0]!;
    expect(cmd).toMatchObject({ input: command, risk_level: { value: 0 } });
    expect(cmd.output).toContain('out-42');
    expect(cmd.output).toContain('err-1');
    const row = await t.deps.database.db
      .selectFrom('terminal_session')
      .select('replay_path')
      .where('id', '=', finished.id)
      .executeTakeFirstOrThrow();
    const cast = gunzipSync(fs.readFileSync(path.join(t.dataDir, row.replay_path))).toString('utf8');
    expect(cast).toContain('out-42\\r\\n');
  }, 40_000);

  it('refuses a command a reject rule matches without running it; refuses copies, a missing target, a virtual account', async () => {
    await commandRule(admin, target.host.id, 'no touching', 'touch');
    const file = path.join(sshd.home, `touched-${Date.now()}`);
    const r = await runSsh(port, key.file, login, `touch ${file}`);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('no touching');
    expect(fs.existsSync(file)).toBe(false);
    const s = await until(async () => {
      for (const x of await sessionsOfSam()) {
        const c = (await commandsOf(x.id)).find((c) => c.input === `touch ${file}`);
        if (c) return c;
      }
      return undefined;
    });
    expect(s.risk_level).toMatchObject({ value: 5 });

    expect((await runSsh(port, key.file, login, 'rsync --server -e.LsfxC . /tmp/')).err).toContain(
      'rsync is not supported',
    );
    expect((await runSsh(port, key.file, login, 'scp -t /tmp/')).err).toContain('Legacy scp');
    const bare = await runSsh(port, key.file, 'sam', 'id');
    expect(bare.code).toBe(1);
    expect(bare.err).toContain('Name the asset to run a command on');
    const input = await runSsh(port, key.file, `sam@@INPUT@${target.host.name}`, 'id');
    expect(input.code).toBe(1);
    expect(input.err).toContain('asks for its login when it connects');
  }, 40_000);

  it('holds a command under review until the reviewer approves it, then runs it', async () => {
    const rev = await makeUser(admin, 'exec-reviewer');
    const reviewer = await signIn(t, 'exec-reviewer');
    await commandRule(admin, target.host.id, 'review date', 'date', 'review', [rev.id]);
    const running = runSsh(port, key.file, login, 'date +%Y-approved');
    const C = `${T}/apply-command-tickets`;
    const ticket = await until(async () => ((await reviewer.get(`${C}/?status=open`)).json() as Row[])[0]);
    expect(ticket).toMatchObject({ apply_run_command: 'date +%Y-approved' });
    expect((await put(reviewer, `${C}/${ticket.id}/approve/`)).statusCode).toBe(200);
    const r = await running;
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${new Date().getFullYear()}-approved\n`);
    expect(r.err).toContain('needs approval');
  }, 40_000);

  it('ends when an auditor kills its session, saying so', async () => {
    // Killed while it runs on the asset (the file says it started), and before it reaches the asset.
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
    // Killed while a review rule holds it: it never runs, and its command is recorded as cancelled.
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    await commandRule(admin, target.host.id, 'hold it', 'hold-me', 'review', [adminId]);
    const held = runSsh(port, key.file, login, 'echo hold-me');
    const waiting = await until(async () => {
      for (const s of await sessionsOfSam()) if (!s.is_finished && (await commandsOf(s.id)).length === 0) return s;
      return undefined;
    });
    await admin.post('/api/v1/terminal/tasks/kill-session/', [waiting.id]);
    expect(await held).toMatchObject({ code: 1, out: '', err: expect.stringContaining('terminated') });
    const cancelled = await until(async () => (await commandsOf(waiting.id))[0]);
    expect(cancelled).toMatchObject({ input: 'echo hold-me', risk_level: { value: 8 } });
  }, 40_000);
});
