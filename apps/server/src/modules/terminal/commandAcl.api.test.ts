import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { setCommandReviewer } from './gateway/commandReview.ts';
import { adminIdentity, hostWithAccounts, KEY, openShell } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';

/**
 * Command filter rules in a live session on a real OpenSSH: a rejected line never reaches the
 * asset, a warning runs and tells the reviewers, a reviewed line is held until answered or
 * cancelled with Ctrl+C.
 */
const A = '/api/v1/acls';
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any };
let adminUser: { id: string; name: string; username: string };

async function rule(name: string, action: string, content: string, priority: number) {
  const group = await admin.post(`${A}/command-groups/`, { name: `${name}-group`, content });
  expect(group.statusCode, group.body).toBe(201);
  const res = await admin.post(`${A}/command-filter-acls/`, {
    name,
    action,
    priority,
    users: { type: 'all' },
    assets: { type: 'ids', ids: [target.host.id] },
    accounts: ['@ALL'],
    command_groups: [group.json().id],
    reviewers: [adminUser.id],
  });
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  adminUser = await adminIdentity(t.app);
  await rule('no touching', 'reject', 'touch', 10);
  await rule('watch whoami', 'warning', 'whoami', 20);
  await rule('review date', 'review', 'date', 30);
}, 30_000);
afterAll(async () => {
  setCommandReviewer(undefined);
  sshd?.stop();
  await t?.close();
});

function session() {
  return openShell(t.app, { user: adminUser, assetId: target.host.id, accountId: target.password.id });
}

const risks = async (sessionId: string) =>
  ((await admin.get(`/api/v1/terminal/commands/?session_id=${sessionId}&order=timestamp`)).json() as Row[]).map((c) => [
    c.input,
    c.risk_level.value,
  ]);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
type Row = any;

describe('command filter rules in a session', () => {
  it('rejects a line (not run, the user told why), lets a warning run and tells the reviewers', async () => {
    const flag = path.join(sshd.home, 'rejected-flag');
    const { s, term } = await session();
    const before = (await admin.get('/api/v1/notifications/site-messages/?has_read=false')).json();
    await term.run(`touch ${flag}`);
    expect(term.text).toContain(`Command "touch ${flag}" is rejected by the rule "no touching"; it was not run.`);
    await term.run('whoami');
    // The test user has uid 0 (SHELL_USER of test-support/sshd.ts).
    expect(term.text).toMatch(/[^ ]root\r\n/);
    await term.run('echo fine');
    await term.type('exit\r');
    await term.waitEnd();
    expect(fs.existsSync(flag)).toBe(false);
    expect(await risks(s.id)).toEqual([
      [`touch ${flag}`, 5],
      ['whoami', 4],
      ['echo fine', 0],
      ['exit', 0],
    ]);
    const cmds = (await admin.get(`/api/v1/terminal/commands/?session_id=${s.id}&risk_level=5`)).json();
    expect(cmds[0].output).toContain('is rejected by the rule');
    const after = (await admin.get('/api/v1/notifications/site-messages/?has_read=false')).json();
    const count = (x: Row) => (Array.isArray(x) ? x.length : x.count);
    expect(count(after)).toBe(count(before) + 1);
    const latest = Array.isArray(after) ? after[0] : after.results[0];
    expect(JSON.stringify(latest)).toContain('Command warning: whoami');
  }, 60_000);

  it("tells the reviewers in their own language, not the session user's", async () => {
    const { db } = t.deps.database;
    // The session is English (openShell); the reviewer last used the console in Japanese.
    await db.updateTable('users_user').set({ lang: 'ja' }).where('id', '=', adminUser.id).execute();
    try {
      const { term } = await session();
      await term.run('whoami');
      await term.type('exit\r');
      await term.waitEnd();
      const latest = await db
        .selectFrom('notifications_sitemessage as m')
        .innerJoin('notifications_messagecontent as c', 'c.id', 'm.content_id')
        .select(['c.subject', 'c.message'])
        .where('m.user_id', '=', adminUser.id)
        .orderBy('m.date_created', 'desc')
        .executeTakeFirstOrThrow();
      expect(latest.subject).toBe('コマンド警告: whoami');
      expect(latest.message).toContain('ルール &quot;watch whoami&quot;');
    } finally {
      await db.updateTable('users_user').set({ lang: 'en' }).where('id', '=', adminUser.id).execute();
    }
  }, 60_000);

  it('holds a reviewed line until Ctrl+C cancels it, and runs it once the reviewer approves', async () => {
    const { s, term } = await session();
    let from = term.text.length;
    await term.type('date +%Y-held\r');
    await term.waitFor('needs approval (rule "review date")', from);
    // Held: what is typed now does not reach the asset.
    await term.type('echo typed-while-held\r');
    await new Promise((r) => setTimeout(r, 300));
    expect(term.text.slice(from)).not.toContain(`${new Date().getFullYear()}-held`);
    expect(term.text.slice(from)).not.toContain('typed-while-held\r\n');
    await term.type(KEY.ctrlC);
    await term.waitFor('Command cancelled.', from);
    await term.waitFor('gh$ ', term.text.lastIndexOf('Command cancelled.'));

    const asked: string[] = [];
    setCommandReviewer(async (r) => {
      asked.push(`${r.command} by ${r.userId} on ${r.assetId}, reviewers ${r.reviewers.join(',')}`);
      return 'approved';
    });
    from = term.text.length;
    await term.run('date +%Y-approved');
    await term.waitFor(`${new Date().getFullYear()}-approved`, from);
    expect(term.text.slice(from)).toContain('Command approved; running it.');
    expect(asked).toEqual([`date +%Y-approved by ${adminUser.id} on ${target.host.id}, reviewers ${adminUser.id}`]);

    setCommandReviewer(async () => 'rejected');
    from = term.text.length;
    await term.run('date +%Y-denied');
    expect(term.text.slice(from)).toContain('Command not approved; it was not run.');
    expect(term.text.slice(from)).not.toContain(`${new Date().getFullYear()}-denied`);
    await s.close();
    expect(await risks(s.id)).toEqual([
      ['date +%Y-held', 8],
      ['date +%Y-approved', 7],
      ['date +%Y-denied', 6],
    ]);
  }, 60_000);
});
