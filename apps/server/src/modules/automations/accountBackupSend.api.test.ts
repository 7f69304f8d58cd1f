import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { apiPost } from '../../../test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '../../../test-support/sshAsset.ts';
import { attachmentOf, startSmtpPeer, type SmtpPeer } from '../../../test-support/smtpPeer.ts';
import { startSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { sftpStore } from '../terminal/storage/sftpStore.ts';

/**
 * Account backups sent away (issue 30, item 4): by mail to each part's recipients through a real
 * SMTP server (`smtp-server`), and to two SFTP storages on a real sshd. Each part receives the file
 * and only its half of the password; the machine's `openssl` opens the file received with both.
 */
let t: TestApp;
let admin: SessionClient;
let peer: SmtpPeer;
let sftp: SshdWithUsers;
let me: string;
let myMail: string;
let otherId: string;
const PLANS = '/api/v1/accounts/account-backup-plans/';
const EXECS = '/api/v1/accounts/account-backup-plan-executions/';
const STORAGES = '/api/v1/terminal/replay-storages/';
const SECRET = 'Sent-secret-1,x';

beforeAll(async () => {
  [t, peer, sftp] = await Promise.all([
    createTestApp(),
    startSmtpPeer(),
    startSshd({ users: [{ username: 'dropbox', password: 'Drop-pass-1' }], sftp: true }),
  ]);
  admin = await adminClient(t.app);
  const post = apiPost(admin);
  const profile = (await admin.get('/api/v1/users/profile/')).json();
  [me, myMail] = [profile.id, profile.email];
  otherId = (
    await post('/api/v1/users/users/', {
      name: 'part two',
      username: 'parttwo',
      email: 'parttwo@corp.example',
      password_strategy: 'custom',
      password: 'Part-two-pass-1',
    })
  ).id;
  const mail = await admin.patch('/api/v1/settings/setting/?category=email', {
    EMAIL_HOST: '127.0.0.1',
    EMAIL_PORT: peer.port,
    EMAIL_FROM: 'gatehouse@corp.example',
  });
  expect(mail.statusCode, mail.body).toBe(200);
  const host = await linuxHost(post, 22, { name: 'sent-host' });
  await post(ACCOUNTS, { asset: host.id, username: 'sentuser', secret: SECRET });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await peer?.close();
  sftp?.stop();
});

function openssl(file: Buffer, password: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-backup-'));
  const tmp = path.join(dir, 'b.enc');
  fs.writeFileSync(tmp, file);
  try {
    const args = ['enc', '-d', '-aes-256-cbc', '-pbkdf2', '-iter', '10000', '-md', 'sha256', '-in', tmp];
    return execFileSync('openssl', [...args, '-pass', `pass:${password}`], { stdio: 'pipe' }).toString();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function run(plan: string): Promise<{ task: string; status: string; reason: string }> {
  const res = await admin.post(EXECS, { plan });
  expect(res.statusCode, res.body).toBe(201);
  const task = res.json().task as string;
  await expect
    .poll(async () => (await admin.get(`${EXECS}${task}/`)).json().status, { timeout: 30_000 })
    .toMatch(/success|failed/);
  const e = (await admin.get(`${EXECS}${task}/`)).json();
  return { task, status: e.status, reason: e.reason };
}

describe('account backup sent away', () => {
  it('mails each part the encrypted file and its half; both halves open it', async () => {
    const plan = await apiPost(admin)(PLANS, {
      name: 'by mail',
      types: ['host'],
      backup_type: 'email',
      recipients_part_one: [me],
      recipients_part_two: [otherId],
      is_periodic: false,
    });
    const { task, status } = await run(plan.id);
    expect(status).toBe('success');
    const filename = `account-backup-${task}.csv.enc`;
    await expect.poll(() => peer.mails.filter((m) => m.raw.includes(filename)).length, { timeout: 60_000 }).toBe(2);
    const to = (addr: string) => peer.mails.find((m) => m.to.includes(addr) && m.raw.includes(filename))!;
    const half = (addr: string) => /Part \d of its password: (\S+) \./.exec(to(addr).text)![1]!;
    const [one, two] = [half(myMail), half('parttwo@corp.example')];
    expect(one).not.toBe(two);
    expect(to(myMail).text).not.toContain(two);
    const file = attachmentOf(to('parttwo@corp.example'), filename)!;
    expect(file.subarray(0, 8).toString()).toBe('Salted__');
    expect(file.includes(Buffer.from(SECRET.slice(0, 10)))).toBe(false);
    expect(openssl(file, one + two)).toContain(`sent-host,127.0.0.1,sentuser,sentuser,password,"${SECRET}",`);
    expect(() => openssl(file, two + one)).toThrow();

    // The outbox kept the body sealed and dropped the attachment once sent (the row is marked sent
    // after the peer has the mail: wait for that, not only for the mail).
    const outbox = () =>
      t.deps.database.db
        .selectFrom('notifications_mailoutbox')
        .selectAll()
        .where('message_type', '=', 'account_backup')
        .execute();
    await expect.poll(async () => (await outbox()).map((r) => r.status)).toEqual(['sent', 'sent']);
    const rows = await outbox();
    expect(rows.length).toBe(2);
    for (const r of rows) {
      expect(r.attachment).toBeNull();
      expect(r.html).not.toContain(one);
      expect(r.html).not.toContain(two);
    }
  }, 120_000);

  it('puts the file and each part’s half on its SFTP storage; both open it', async () => {
    const storage = async (name: string, dir: string) => {
      fs.mkdirSync(dir, { recursive: true });
      const res = await admin.post(STORAGES, {
        name,
        type: 'sftp',
        meta: {
          SFTP_HOST: '127.0.0.1',
          SFTP_PORT: String(sftp.port),
          STA_SFTP_USERNAME: 'dropbox',
          STA_SFTP_PASSWORD: 'Drop-pass-1',
          STA_SFTP_ROOT_PATH: dir,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().meta).not.toHaveProperty('STA_SFTP_PASSWORD');
      expect((await admin.get(`${STORAGES}${res.json().id}/test-connective/`)).json().is_valid).toBe(true);
      return res.json().id as string;
    };
    const [a, b] = [path.join(sftp.home, 'one'), path.join(sftp.home, 'two')];
    const ids = [await storage('drop one', a), await storage('drop two', b)];

    const body = { name: 'to sftp', types: ['linux'], backup_type: 'object_storage', is_periodic: false };
    const missing = await admin.post(PLANS, body);
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json()).sort()).toEqual(['obj_recipients_part_one', 'obj_recipients_part_two']);
    const notSftp = await admin.post(PLANS, {
      ...body,
      obj_recipients_part_one: [me],
      obj_recipients_part_two: [ids[1]],
    });
    expect(notSftp.json().obj_recipients_part_one[0]).toContain(me);

    const plan = await apiPost(admin)(PLANS, {
      ...body,
      obj_recipients_part_one: [ids[0]],
      obj_recipients_part_two: [ids[1]],
    });
    const { task, status, reason } = await run(plan.id);
    expect(status, reason).toBe('success');
    const got = (dir: string, name: string) => fs.readFileSync(path.join(dir, 'account-backups', name));
    const file = got(a, `account-backup-${task}.csv.enc`);
    expect(got(b, `account-backup-${task}.csv.enc`).equals(file)).toBe(true);
    const one = got(a, `account-backup-${task}.part1.txt`).toString().trim();
    const two = got(b, `account-backup-${task}.part2.txt`).toString().trim();
    expect(fs.existsSync(path.join(a, 'account-backups', `account-backup-${task}.part2.txt`))).toBe(false);
    expect(openssl(file, one + two)).toContain(`"${SECRET}"`);

    // A storage that refuses: the execution fails and says which and why.
    await admin.patch(`${STORAGES}${ids[1]}/`, {
      meta: { SFTP_HOST: '127.0.0.1', SFTP_PORT: '1', STA_SFTP_USERNAME: 'x' },
    });
    const failed = await run(plan.id);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toContain('drop two');
  }, 120_000);

  it('keeps a running recording’s parts on an SFTP storage: written from memory, listed in order', async () => {
    const root = path.join(sftp.home, 'replays');
    fs.mkdirSync(root, { recursive: true });
    const store = sftpStore({
      SFTP_HOST: '127.0.0.1',
      SFTP_PORT: String(sftp.port),
      STA_SFTP_USERNAME: 'dropbox',
      STA_SFTP_PASSWORD: 'Drop-pass-1',
      STA_SFTP_ROOT_PATH: root,
    });
    const prefix = '2026-11-28/s1.cast.gz.parts/';
    await store.putBytes(`${prefix}00000002.gz`, Buffer.from('two'));
    await store.putBytes(`${prefix}00000001.gz`, Buffer.from('one'));
    await store.putBytes('2026-11-28/s10.cast.gz.parts/00000001.gz', Buffer.from('other'));
    expect(await store.list(prefix)).toEqual([`${prefix}00000001.gz`, `${prefix}00000002.gz`]);
    expect(await store.list('2026-11-28/none.parts/')).toEqual([]);
    const chunks: Buffer[] = [];
    for await (const c of await store.get(`${prefix}00000002.gz`)) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('two');
  });
});
