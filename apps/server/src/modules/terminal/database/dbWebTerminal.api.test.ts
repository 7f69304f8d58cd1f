import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost } from '../../../../test-support/accounts.ts';
import { dbAsset, scratchMysql, scratchPg, type ScratchDb } from '../../../../test-support/dbAssets.ts';
import { makePerm, type Row } from '../../../../test-support/perms.ts';
import { listenOnLoopback } from '../../../../test-support/siteMsgSocket.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { terminalClient } from '../../../../test-support/webTerminal.ts';

/**
 * A database asset in the web terminal: the gateway runs `psql` / MariaDB's `mariadb` under a pty
 * behind the database proxy (no proxy port needed: a private socket), the account's secret never
 * shown; statements recorded under the terminal session, the screen recorded for the replay, the
 * command filter rules applied by the proxy.
 */
let t: TestApp;
let admin: SessionClient;
let base: string;
let pgDb: ScratchDb;
let myDb: ScratchDb;
let pgA: { asset: Row; account: Row };
let myA: { asset: Row; account: Row };

beforeAll(async () => {
  [pgDb, myDb] = await Promise.all([scratchPg(), scratchMysql()]);
  t = await createTestApp();
  admin = await adminClient(t.app);
  base = await listenOnLoopback(t.app);
  const post = apiPost(admin);
  pgA = await dbAsset(post, 'postgresql', pgDb);
  myA = await dbAsset(post, 'mariadb', myDb);
  const me = (await admin.get('/api/v1/users/profile/')).json();
  await makePerm(admin, {
    users: [me.id],
    assets: [pgA.asset.id, myA.asset.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
  const group = await post('/api/v1/acls/command-groups/', { name: 'web-no-drops', content: 'drop table' });
  await post('/api/v1/acls/command-filter-acls/', {
    name: 'web-no-drops-rule',
    action: 'reject',
    priority: 10,
    users: { type: 'all' },
    assets: { type: 'all' },
    accounts: ['@ALL'],
    command_groups: [group.id],
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([pgDb?.drop(), myDb?.drop()]);
});

async function open(a: { asset: Row; account: Row }, protocol: string) {
  const res = await admin.post('/api/v1/authentication/connection-token/', {
    asset: a.asset.id,
    account: a.account.id,
    protocol,
    connect_method: 'web_cli',
  });
  expect(res.statusCode, res.body).toBe(201);
  return terminalClient(base, res.json().id);
}

async function replayText(sessionId: string): Promise<string> {
  const row = await t.deps.database.db
    .selectFrom('terminal_session')
    .selectAll()
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return zlib.gunzipSync(fs.readFileSync(path.join(t.dataDir, row.replay_path))).toString('utf8');
}

describe('databases in the web terminal', () => {
  it.each([
    ['postgresql', () => pgA, () => pgDb, /=> $/, '(3 rows)', '\\q'],
    ['mariadb', () => myA, () => myDb, /\]> $/, '3 rows in set', 'exit'],
  ] as const)(
    '%s: the client runs behind the proxy; statements recorded, a rejected one refused, replayable',
    async (protocol, a, db, prompt, rows, quit) => {
      const term = await open(a(), protocol);
      await term.waitFor(() => prompt.test(term.text()), 'the prompt');
      await term.type('select v\rfrom t order by id;\r');
      await term.waitFor(() => term.text().includes(rows), rows);
      await term.type('drop table t;\r');
      await term.waitFor(() => /rejected by the rule "web-no-drops-rule"/.test(term.text()), 'the refusal');
      await term.type(`${quit}\r`);
      await term.closed;
      const sessionId = term.msgs.find((m) => m.type === 'CONNECT')!.id!;
      await expect
        .poll(async () => (await admin.get(`/api/v1/terminal/sessions/${sessionId}/`)).json().is_finished)
        .toBe(true);
      const s = (await admin.get(`/api/v1/terminal/sessions/${sessionId}/`)).json();
      // MariaDB's client sends a statement of its own at start (`select @@version_comment limit 1`).
      expect(s).toMatchObject({ protocol, has_replay: true });
      expect(s.login_from).toMatchObject({ value: 'WT' });
      const cmds = (
        await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)
      ).json() as Row[];
      expect(s.command_amount).toBe(cmds.length);
      const typed = cmds.filter((c) => /from t|table t/.test(c.input));
      expect(typed.map((c) => [c.input, c.risk_level?.value ?? c.risk_level])).toEqual([
        ['select v\nfrom t order by id', 0],
        ['drop table t', 5],
      ]);
      const replay = await replayText(sessionId);
      expect(replay).toContain(rows);
      expect(replay).not.toContain(db().password);
      expect(term.text()).not.toContain(db().password);
    },
    30_000,
  );
});
