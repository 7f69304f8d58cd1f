import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost, confirmAdmin } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { runRetention } from '../ops/retention.ts';
import { backupFile } from './backupRun.ts';

/**
 * Account backup, the download variant (issue 30, item 4): a plan over Linux hosts, two recipient
 * parts each told their half of the password by a site message, the encrypted file downloaded by a
 * superuser after verifying again and opened with the machine's real `openssl` and both halves.
 */
let t: TestApp;
let admin: SessionClient;
let other: SessionClient;
let otherId: string;
const PLANS = '/api/v1/accounts/account-backup-plans/';
const EXECS = '/api/v1/accounts/account-backup-plan-executions/';

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  otherId = (
    await apiPost(admin)('/api/v1/users/users/', {
      name: 'part two',
      username: 'parttwo',
      email: 'parttwo@example.com',
      password_strategy: 'custom',
      password: 'Part-two-pass-1',
    })
  ).id;
  other = new SessionClient(t.app);
  expect((await other.login('parttwo', 'Part-two-pass-1')).statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The half of the password a user reads in their site messages for `execution`. */
async function halfOf(client: SessionClient, execution: string): Promise<string> {
  const res = await client.get('/api/v1/notifications/site-messages/');
  expect(res.statusCode).toBe(200);
  const messages = (res.json() as { content: { message: string } }[]).map((r) => r.content.message);
  const m = messages.map((text) => new RegExp(`backup ${execution}: (\\S+) \\.`).exec(text)).find(Boolean);
  if (!m) throw new Error('no half received');
  return m[1]!;
}

describe('account backup', () => {
  it('encrypts the accounts of the plan’s types and opens with both halves', async () => {
    const post = apiPost(admin);
    const host = await linuxHost(post, 22, { name: 'backup-host' });
    await post(ACCOUNTS, { asset: host.id, username: 'bkuser', secret: 'Backup-secret-1,x' });
    const me = (await admin.get('/api/v1/users/profile/')).json().id as string;
    const bad = await admin.post(PLANS, { name: 'b', types: [], recipients_part_one: [me], recipients_part_two: [] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['recipients_part_two', 'types']);
    const plan = await post(PLANS, {
      name: 'nightly',
      types: ['linux'],
      recipients_part_one: [me],
      recipients_part_two: [otherId],
      is_periodic: false,
    });
    const res = await admin.post(EXECS, { plan: plan.id });
    expect(res.statusCode, res.body).toBe(201);
    const task = res.json().task as string;
    await expect
      .poll(async () => (await admin.get(`${EXECS}${task}/`)).json().status, { timeout: 30_000 })
      .toBe('success');
    const one = await halfOf(admin, task);
    const two = await halfOf(other, task);
    expect(one).not.toBe(two);
    // Each half is stored sealed: neither is in the database in clear.
    const stored = await t.deps.database.db
      .selectFrom('notifications_messagecontent')
      .select(['message', 'sealed'])
      .execute();
    expect(stored.some((r) => r.message.includes(one) || r.message.includes(two))).toBe(false);
    expect(stored.filter((r) => Boolean(r.sealed))).toHaveLength(2);

    // Only a superuser, and only after verifying again.
    expect((await other.get(`${EXECS}${task}/download/`)).statusCode).toBe(403);
    const unconfirmed = await admin.get(`${EXECS}${task}/download/`);
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().code).toBe('password');
    await confirmAdmin(admin);
    const file = await admin.get(`${EXECS}${task}/download/`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 8).toString()).toBe('Salted__');
    expect(file.rawPayload.includes(Buffer.from('Backup-secret-1'))).toBe(false);
    const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-backup-')), 'b.enc');
    fs.writeFileSync(tmp, file.rawPayload);
    try {
      const plain = execFileSync('openssl', [
        'enc',
        '-d',
        '-aes-256-cbc',
        '-pbkdf2',
        '-iter',
        '10000',
        '-md',
        'sha256',
        '-in',
        tmp,
        '-pass',
        `pass:${one}${two}`,
      ]).toString();
      expect(plain).toContain('backup-host,127.0.0.1,bkuser,bkuser,password,"Backup-secret-1,x",');
      expect(() =>
        execFileSync(
          'openssl',
          [
            'enc',
            '-d',
            '-aes-256-cbc',
            '-pbkdf2',
            '-iter',
            '10000',
            '-md',
            'sha256',
            '-in',
            tmp,
            '-pass',
            `pass:${one}`,
          ],
          {
            stdio: 'pipe',
          },
        ),
      ).toThrow();
    } finally {
      fs.rmSync(path.dirname(tmp), { recursive: true, force: true });
    }
  }, 60_000);

  it('removes backup files older than TASK_LOG_KEEP_DAYS with the daily clean-up; their download says so', async () => {
    const me = (await admin.get('/api/v1/users/profile/')).json().id as string;
    const plan = await apiPost(admin)(PLANS, {
      name: 'kept',
      types: ['linux'],
      recipients_part_one: [me],
      recipients_part_two: [otherId],
      is_periodic: false,
    });
    const run = async () => {
      const res = await admin.post(EXECS, { plan: plan.id });
      expect(res.statusCode, res.body).toBe(201);
      const task = res.json().task as string;
      await expect
        .poll(async () => (await admin.get(`${EXECS}${task}/`)).json().status, { timeout: 30_000 })
        .toBe('success');
      return task;
    };
    const old = await run();
    const recent = await run();
    const oldFile = backupFile(t.deps.config.dataDir, old);
    const recentFile = backupFile(t.deps.config.dataDir, recent);
    // Written 91 days ago: past the default 90 days of TASK_LOG_KEEP_DAYS.
    const then = new Date(Date.now() - 91 * 86400_000);
    fs.utimesSync(oldFile, then, then);

    const result = await runRetention(t.deps);
    expect(result.deleted.account_backups).toBe(1);
    expect(fs.existsSync(oldFile)).toBe(false);
    expect(fs.existsSync(recentFile)).toBe(true);

    const rows = (await admin.get(`${EXECS}?plan_id=${plan.id}`)).json() as { id: string; backup_removed: unknown }[];
    expect(rows.find((r) => r.id === old)?.backup_removed).toEqual(expect.any(String));
    expect(rows.find((r) => r.id === recent)?.backup_removed).toBeNull();
    await confirmAdmin(admin);
    const gone = await admin.get(`${EXECS}${old}/download/`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toMatch(/was removed on \d{4}-\d\d-\d\d: files are kept 90 days/);
    const zh = await admin.get(`${EXECS}${old}/download/`, { 'accept-language': 'zh' });
    expect(zh.json().detail).toContain('已于');
    expect((await admin.get(`${EXECS}${recent}/download/`)).statusCode).toBe(200);
  }, 60_000);
});
