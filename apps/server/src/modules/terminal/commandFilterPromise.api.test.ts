import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionClient, TestApp } from '../../../test-support/testApp.ts';
import { makePerm, makeUser, type Row } from '../../../test-support/perms.ts';
import { commandRule, hostWithAccounts, typeKeys } from '../../../test-support/gateway.ts';
import { listenOnLoopback } from '../../../test-support/siteMsgSocket.ts';
import { nativeSshApp, SshClient, userKeyPair } from '../../../test-support/sshClients.ts';
import { SHELL_USER, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { terminalClient } from '../../../test-support/webTerminal.ts';

/**
 * The command filter's promise, through both front ends a person types into (the web terminal's
 * socket, and the native SSH server with the real OpenSSH client) against a real bash: a rule
 * catches the command as typed and shown, however the line is ended; every command is recorded; a
 * command recorded as refused did not run. Each way of ending a line runs an allowed `echo` (its
 * output shows) and a `touch` of a marker file that a reject rule refuses (the file never appears,
 * the record says refused), then a last `echo` that proves the shell went on. And an allow list:
 * an accept rule on the listed commands above a reject rule on `.*` lets only those run.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let port: number;
let base: string;
let filtered: Row;
let listed: Row;
const key = userKeyPair();
let n = 0;

beforeAll(async () => {
  let target;
  ({ sshd, port, t, admin, target } = await nativeSshApp());
  filtered = target.host;
  listed = (await hostWithAccounts(admin, sshd)).host;
  await commandRule(admin, filtered.id, 'no touching', 'touch');
  await allowList(listed.id);
  const sam = await makeUser(admin, 'sam');
  await t.deps.database.db
    .updateTable('users_user')
    .set({ public_key: key.publicKey })
    .where('id', '=', sam.id)
    .execute();
  const me = (await admin.get('/api/v1/users/profile/')).json() as Row;
  const hosts = [filtered.id, listed.id];
  await makePerm(admin, { users: [sam.id, me.id], assets: hosts, accounts: ['@ALL'], actions: ['connect'] });
  base = await listenOnLoopback(t.app);
}, 60_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

/** The allow list of the console's help: listed commands accepted first, then everything refused. */
async function allowList(assetId: string): Promise<void> {
  const rule = async (name: string, action: string, content: string, priority: number) => {
    const group = await admin.post('/api/v1/acls/command-groups/', { name: `${name}-group`, type: 'regex', content });
    expect(group.statusCode, group.body).toBe(201);
    const res = await admin.post('/api/v1/acls/command-filter-acls/', {
      name,
      action,
      priority,
      users: { type: 'all' },
      assets: { type: 'ids', ids: [assetId] },
      accounts: ['@ALL'],
      command_groups: [group.json().id],
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  await rule('listed commands', 'accept', String.raw`^(echo|ls|id)(\s[\w ./=-]*)?$`, 10);
  await rule('everything else', 'reject', '.*', 100);
}

/** A terminal a person types into. */
interface Terminal {
  sessionId: string;
  text(): string;
  /** Keys one at a time, as typed (a string's characters, an array's items whole: a word typed fast). */
  type(keys: string | string[]): Promise<void>;
  /** Keys in one piece, as a paste. */
  paste(keys: string): void;
  waitFor(what: string | RegExp, from: number): Promise<void>;
  close(): Promise<void>;
}

const found = (text: string, what: string | RegExp) =>
  typeof what === 'string' ? text.includes(what) : what.test(text);

async function webTerminal(host: Row): Promise<Terminal> {
  const res = await admin.post('/api/v1/authentication/connection-token/', {
    asset: host.id,
    account: SHELL_USER.username,
    protocol: 'ssh',
    connect_method: 'web_cli',
  });
  expect(res.statusCode, res.body).toBe(201);
  const term = terminalClient(base, res.json().id);
  await term.waitFor(() => term.text().includes('gh$ '), 'prompt');
  const send = (data: string) => term.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data }));
  return {
    sessionId: term.msgs.find((m) => m.type === 'CONNECT')!.id!,
    text: term.text,
    type: (keys) => typeKeys(send, keys),
    paste: send,
    waitFor: (what, from) => term.waitFor(() => found(term.text().slice(from), what), String(what)),
    close: async () => {
      term.ws.close();
      await term.closed;
    },
  };
}

async function sshTerminal(host: Row): Promise<Terminal> {
  const c = new SshClient(
    port,
    `sam@${SHELL_USER.username}@${host.name}`,
    { password: '', identity: key.file },
    { env: { TERM: 'xterm-256color' } },
  );
  await c.waitFor('gh$ ');
  let sessionId = '';
  await expect
    .poll(async () => {
      const open = (await admin.get('/api/v1/terminal/sessions/?login_from=ST&is_finished=0')).json() as Row[];
      sessionId = open.find((s) => s.user.includes('(sam)'))?.id ?? '';
      return sessionId;
    })
    .not.toBe('');
  return {
    sessionId,
    text: () => c.text,
    type: (keys) => typeKeys((k) => c.keys(k), keys),
    paste: (keys) => c.keys(keys),
    waitFor: (what, from) => c.waitFor(what, from),
    close: async () => {
      c.kill();
      await c.exited;
    },
  };
}

const FRONT_ENDS = { 'web terminal': webTerminal, 'native SSH': sshTerminal };

/** The session's commands once it is finished: input, risk level, read from input. */
async function recorded(sessionId: string): Promise<[string, number, boolean][]> {
  await expect
    .poll(async () => (await admin.get(`/api/v1/terminal/sessions/${sessionId}/`)).json().is_finished)
    .toBe(true);
  const rows = (await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json() as Row[];
  return rows.map((r) => [r.input, r.risk_level.value, r.from_input]);
}

interface LineEndCase {
  name: string;
  /** Typed (with Enter, waiting for the prompt) before the two commands. */
  setup?: string;
  /** How the case types a command line and ends it. */
  enter(term: Terminal, line: string): Promise<void>;
  /** The commands are read from the keys (the screen does not show them). */
  fromInput?: boolean;
  /** Both lines sent in one piece, as a paste. */
  paste?: (lines: string[]) => string;
}

const ESC = '\x1b';
const CASES: LineEndCase[] = [
  { name: 'Enter', enter: (term, line) => term.type([line, '\r']) },
  { name: 'Ctrl+J (line feed)', enter: (term, line) => term.type([line, '\n']) },
  { name: "Ctrl+O (bash's operate-and-get-next)", enter: (term, line) => term.type([line, '\x0f']) },
  { name: 'vi mode: Escape, then Enter', setup: 'set -o vi', enter: (term, line) => term.type([line, ESC, '\r']) },
  // In vi command mode Ctrl+U kills back from the cursor: with the cursor at the start, the
  // Ctrl+E Ctrl+U that once dropped a refused line left all of it, and Enter ran it.
  {
    name: 'vi mode: Escape, back to the line start (0), then Enter',
    setup: 'set -o vi',
    enter: (term, line) => term.type([line, ESC, '0', '\r']),
  },
  {
    name: 'echo off (stty -echo)',
    setup: 'stty -echo',
    enter: (term, line) => term.type([line, '\r']),
    fromInput: true,
  },
  { name: 'a paste of two lines with line feeds', enter: async () => undefined, paste: (l) => `${l.join('\n')}\n` },
  {
    // As a browser's xterm.js pastes once bash asked for bracketed paste: line ends as Enter, in marks.
    name: 'a bracketed paste of two lines',
    enter: async () => undefined,
    paste: (l) => `\x1b[200~${l.join('\r')}\r\x1b[201~`,
  },
];

/** Runs `steps` in a terminal on `host` (closed after, also on a failure); answers its session's records. */
async function inTerminal(open: (host: Row) => Promise<Terminal>, host: Row, steps: (term: Terminal) => Promise<void>) {
  const term = await open(host);
  try {
    await steps(term);
  } finally {
    await term.close();
  }
  return recorded(term.sessionId);
}

describe.each(Object.entries(FRONT_ENDS))('through the %s', (_name, open) => {
  it.each(CASES)('$name: the allowed line runs, the rejected one does not, both are recorded', async (c) => {
    const id = `${++n}-${Date.now()}`;
    const file = path.join(sshd.home, `touched-${id}`);
    const allowed = `echo ok-$((40+2))-${id}`;
    const rejected = `touch ${file}`;
    const last = `echo done-$((1+1))-${id}`;
    const records = await inTerminal(open, filtered, async (term) => {
      if (c.setup) {
        const from = term.text().length;
        await term.type([c.setup, '\r']);
        await term.waitFor('gh$ ', from + 1);
      }
      let from = term.text().length;
      if (c.paste) term.paste(c.paste([allowed, rejected]));
      else await c.enter(term, allowed);
      await term.waitFor(`ok-42-${id}`, from);
      if (!c.paste) await c.enter(term, rejected);
      await term.waitFor(`Command "${rejected}" is rejected by the rule "no touching"; it was not run.`, from);
      from = term.text().length;
      await term.type([last, '\r']);
      await term.waitFor(`done-2-${id}`, from);
      // The shell runs lines in order: had the touch run, the file would be there before `done`.
      expect(fs.existsSync(file)).toBe(false);
    });
    const input = Boolean(c.fromInput);
    expect(records).toEqual([
      ...(c.setup ? [[c.setup, 0, false]] : []),
      [allowed, 0, input],
      [rejected, 5, input],
      [last, 0, input],
    ]);
  });

  it('an allow list: a listed command runs, others (alone or chained to a listed one) are refused and do not run', async () => {
    const id = `${++n}-${Date.now()}`;
    const files = [0, 1, 2].map((i) => path.join(sshd.home, `unlisted-${id}-${i}`));
    const unlisted = [`touch ${files[0]}`, `echo chained; touch ${files[1]}`, `echo $(touch ${files[2]})`];
    const records = await inTerminal(open, listed, async (term) => {
      let from = term.text().length;
      await term.type([`echo listed-${id}`, '\r']);
      await term.waitFor(new RegExp(`[\\r\\n]listed-${id}\\r\\n`), from);
      for (const line of unlisted) {
        from = term.text().length;
        await term.type([line, '\r']);
        await term.waitFor(`Command "${line}" is rejected by the rule "everything else"`, from);
      }
      from = term.text().length;
      await term.type(['id', '\r']);
      await term.waitFor('uid=0(', from);
      for (const f of files) expect(fs.existsSync(f)).toBe(false);
    });
    expect(records).toEqual([[`echo listed-${id}`, 0, false], ...unlisted.map((l) => [l, 5, false]), ['id', 0, false]]);
  });
});
