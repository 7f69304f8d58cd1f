import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makeHost } from '../../../../test-support/accounts.ts';
import { makePerm, makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { put, T } from '../../../../test-support/tickets.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { openSftp, runScp, runSftp, userKeyPair, nativeSshApp } from '../../../../test-support/sshClients.ts';

/**
 * SFTP through the native SSH server with the real OpenSSH `sftp` and `scp` clients against a real
 * sshd asset (its SFTP root is the platform's `sftp_home`, /tmp): the folders of granted assets and
 * accounts, upload and download with their ftp-log rows and kept files, the actions enforced,
 * no way out of the root, and the session rows.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let port: number;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any; key: any };
const keys = { sam: userKeyPair(), rita: userKeyPair() };
const local = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sftp-local-'));
/** Names of files this test puts in the asset's /tmp (removed at the end). */
const tag = `gh-sftp-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  ({ sshd, port, t, admin, target } = await nativeSshApp());
  const sam = await makeUser(admin, 'sam');
  await makePerm(admin, { users: [sam.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['all'] });
  const rita = await makeUser(admin, 'rita');
  await makePerm(admin, {
    users: [rita.id],
    assets: [target.host.id],
    accounts: ['@ALL'],
    actions: ['connect', 'download'],
  });
  const db = t.deps.database.db;
  for (const [name, k] of Object.entries(keys))
    await db.updateTable('users_user').set({ public_key: k.publicKey }).where('username', '=', name).execute();
}, 30_000);
afterAll(async () => {
  for (const f of fs.readdirSync('/tmp').filter((n) => n.startsWith(tag)))
    fs.rmSync(path.join('/tmp', f), { recursive: true, force: true });
  fs.rmSync(local, { recursive: true, force: true });
  sshd?.stop();
  await t?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
async function ftpLogs(): Promise<any[]> {
  return (await admin.get('/api/v1/audits/ftp-logs/?limit=200')).json().results ?? [];
}

describe('native SFTP through the gateway', () => {
  it('shows granted assets and accounts as folders, uploads and downloads, logs both and keeps the files', async () => {
    const data = randomBytes(300_000);
    fs.writeFileSync(path.join(local, 'up.bin'), data);
    const dir = `/${target.host.name}/${target.password.name}`;
    const r = await runSftp(
      port,
      'sam',
      keys.sam.file,
      ['ls /', `ls /${target.host.name}`, `cd ${dir}`, `put up.bin ${tag}.bin`, `get ${tag}.bin down.bin`],
      local,
    );
    expect(r.code, r.err + r.out).toBe(0);
    expect(r.out).toContain(target.host.name);
    expect(r.out).toContain(target.password.name);
    expect(r.out).toContain(target.key.name);
    // On the asset, in the SFTP root (/tmp), and back here byte for byte.
    expect(fs.readFileSync(path.join('/tmp', `${tag}.bin`)).equals(data)).toBe(true);
    expect(fs.readFileSync(path.join(local, 'down.bin')).equals(data)).toBe(true);

    const logs = (await ftpLogs()).filter((l) => l.filename === `/tmp/${tag}.bin`);
    expect(logs.map((l) => l.operate.value).sort()).toEqual(['download', 'upload']);
    for (const l of logs) {
      expect(l).toMatchObject({ is_success: true, has_file: true });
      expect(l.user).toContain('(sam)');
      expect(l.account).toContain(sshd.username);
      const file = await admin.get(`/api/v1/audits/ftp-logs/${l.id}/file/download/`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-disposition']).toContain(`${tag}.bin`);
      expect(file.rawPayload.equals(data)).toBe(true);
    }
    // The connection to the account is one session row: type and protocol sftp, from the SSH server.
    const all = (await admin.get('/api/v1/terminal/sessions/?type=sftp')).json();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
    const rows = (all.results ?? all).filter((r: any) => r.user.includes('(sam)') && r.asset_id === target.host.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ protocol: 'sftp', login_from: { value: 'ST' }, is_success: true });
    expect(rows[0].type).toMatchObject({ value: 'sftp' });
  }, 60_000);

  it('makes, renames and removes folders and files, each logged', async () => {
    const dir = `/${target.host.name}/${target.password.name}`;
    fs.writeFileSync(path.join(local, 'small.txt'), 'small');
    const r = await runSftp(
      port,
      'sam',
      keys.sam.file,
      [
        `cd ${dir}`,
        `mkdir ${tag}-d`,
        `put small.txt ${tag}-d/a.txt`,
        `rename ${tag}-d/a.txt ${tag}-d/b.txt`,
        `rm ${tag}-d/b.txt`,
        `rmdir ${tag}-d`,
      ],
      local,
    );
    expect(r.code, r.err).toBe(0);
    expect(fs.existsSync(`/tmp/${tag}-d`)).toBe(false);
    const ops = (await ftpLogs())
      .filter((l) => String(l.filename).includes(`${tag}-d`) && l.is_success)
      .map((l) => l.operate.value);
    expect(ops).toEqual(expect.arrayContaining(['mkdir', 'upload', 'rename', 'delete', 'rmdir']));
  }, 60_000);

  it('shows and exports a file name with its control characters escaped, never raw', async () => {
    // ESC [31m (red), BEL: sent by a hostile client as part of a folder name.
    const name = `${tag}-\x1b[31mred\x07`;
    const dir = `/${target.host.name}/${target.password.name}`;
    const r = await runSftp(port, 'sam', keys.sam.file, [`cd ${dir}`, `mkdir "${name}"`, `rmdir "${name}"`], local);
    expect(r.code, r.err).toBe(0);
    const shown = `/tmp/${tag}-\\x1b[31mred\\x07`;
    const logs = (await ftpLogs()).filter((l) => String(l.filename).startsWith(`/tmp/${tag}-\\x1b`));
    expect(logs.map((l) => [l.operate.value, l.filename]).sort()).toEqual([
      ['mkdir', shown],
      ['rmdir', shown],
    ]);
    const csv = await admin.get(`/api/v1/audits/ftp-logs/?format=csv&search=${tag}`);
    expect(csv.body).toContain(shown);
    expect(['\x07', '\x1b'].some((c) => csv.body.includes(c))).toBe(false);
    const xlsx = await admin.request({ method: 'GET', url: `/api/v1/audits/ftp-logs/?format=xlsx&search=${tag}` });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.worksheets[0]!.eachRow((row) => row.eachCell((c) => void cells.push(String(c.value))));
    expect(cells).toContain(shown);
    expect(['\x07', '\x1b'].some((c) => cells.join('').includes(c))).toBe(false);
  }, 60_000);

  it('refuses what the permission does not allow, with PERMISSION_DENIED, and logs the refusal', async () => {
    fs.writeFileSync(`/tmp/${tag}-ro.txt`, 'read me');
    fs.writeFileSync(path.join(local, 'x.txt'), 'x');
    const dir = `/${target.host.name}/${target.password.name}`;
    const get = await runSftp(port, 'rita', keys.rita.file, [`get ${dir}/${tag}-ro.txt ro.txt`], local);
    expect(get.code, get.err).toBe(0);
    expect(fs.readFileSync(path.join(local, 'ro.txt'), 'utf8')).toBe('read me');
    const put = await runSftp(port, 'rita', keys.rita.file, [`put x.txt ${dir}/${tag}-x.txt`], local);
    expect(put.code).not.toBe(0);
    expect(put.err).toMatch(/Permission denied/i);
    const rm = await runSftp(port, 'rita', keys.rita.file, [`rm ${dir}/${tag}-ro.txt`], local);
    expect(rm.code).not.toBe(0);
    expect(rm.err).toMatch(/Permission denied/i);
    expect(fs.existsSync(`/tmp/${tag}-x.txt`)).toBe(false);
    expect(fs.existsSync(`/tmp/${tag}-ro.txt`)).toBe(true);
    const refused = (await ftpLogs()).filter((l) => l.user.includes('(rita)') && !l.is_success);
    expect(refused.map((l) => l.operate.value).sort()).toEqual(['delete', 'upload']);
  }, 60_000);

  it('cannot leave the root by .. or by a symlink on the asset', async () => {
    fs.symlinkSync('/etc', `/tmp/${tag}-etc`);
    const dir = `/${target.host.name}/${target.password.name}`;
    const viaLink = await runSftp(port, 'sam', keys.sam.file, [`get ${dir}/${tag}-etc/hostname h1`], local);
    expect(viaLink.code).not.toBe(0);
    expect(fs.existsSync(path.join(local, 'h1'))).toBe(false);
    const viaDots = await runSftp(port, 'sam', keys.sam.file, [`get ${dir}/../../../etc/hostname h2`], local);
    expect(viaDots.code).not.toBe(0);
    expect(fs.existsSync(path.join(local, 'h2'))).toBe(false);
  }, 60_000);

  it('copies with scp (SFTP protocol) and refuses legacy scp -O with a message', async () => {
    fs.writeFileSync(path.join(local, 'scp.txt'), 'via scp');
    const to = `sam@127.0.0.1:/${target.host.name}/${target.password.name}/${tag}-scp.txt`;
    const up = await runScp(port, keys.sam.file, [path.join(local, 'scp.txt'), to]);
    expect(up.code, up.err).toBe(0);
    expect(fs.readFileSync(`/tmp/${tag}-scp.txt`, 'utf8')).toBe('via scp');
    const legacy = await runScp(port, keys.sam.file, [path.join(local, 'scp.txt'), to], true);
    expect(legacy.code).not.toBe(0);
    expect(legacy.err).toContain('Legacy scp');
  }, 60_000);

  it('moves a file of several requests intact both ways; a READ longer than 255 KiB is answered short', async () => {
    const data = randomBytes(3 * 261_120 + 12_345);
    fs.writeFileSync(path.join(local, 'big.bin'), data);
    const dir = `/${target.host.name}/${target.password.name}`;
    const r = await runSftp(
      port,
      'sam',
      keys.sam.file,
      [`put big.bin ${dir}/${tag}-big.bin`, `get ${dir}/${tag}-big.bin big-down.bin`],
      local,
      60_000,
    );
    expect(r.code, r.err).toBe(0);
    expect(fs.readFileSync(`/tmp/${tag}-big.bin`).equals(data)).toBe(true);
    expect(fs.readFileSync(path.join(local, 'big-down.bin')).equals(data)).toBe(true);

    // A client asking for 1 MiB at once (ssh2's, its own splitting lifted) gets the first 255 KiB.
    const conn = new ssh2.Client();
    await new Promise<void>((resolve, reject) => {
      conn.once('ready', resolve).once('error', reject);
      conn.connect({ host: '127.0.0.1', port, username: 'sam', privateKey: fs.readFileSync(keys.sam.file) });
    });
    try {
      const sftp = await new Promise<SFTPWrapper>((res, rej) => conn.sftp((e, s) => (e ? rej(e) : res(s))));
      const h = await new Promise<Buffer>((res, rej) =>
        sftp.open(`${dir}/${tag}-big.bin`, 'r', (e, b) => (e ? rej(e) : res(b))),
      );
      const got = await new Promise<Buffer>((res, rej) => {
        const raw = sftp as unknown as { _maxReadLen: number };
        raw._maxReadLen = 1 << 20;
        const buf = Buffer.alloc(1 << 20);
        sftp.read(h, buf, 0, 1 << 20, 100, (e, n) => (e ? rej(e) : res(buf.subarray(0, n))));
      });
      expect(got.length).toBe(261_120);
      expect(got.equals(data.subarray(100, 100 + 261_120))).toBe(true);
    } finally {
      conn.end();
    }
  }, 60_000);

  it('keeps no file when FTP_FILE_MAX_STORE is 0; the download route answers 404', async () => {
    await t.deps.settings.set('FTP_FILE_MAX_STORE', 0);
    fs.writeFileSync(path.join(local, 'nokeep.txt'), 'not kept');
    const dir = `/${target.host.name}/${target.password.name}`;
    const r = await runSftp(port, 'sam', keys.sam.file, [`put nokeep.txt ${dir}/${tag}-nokeep.txt`], local);
    await t.deps.settings.set('FTP_FILE_MAX_STORE', 100);
    expect(r.code, r.err).toBe(0);
    const log = (await ftpLogs()).find((l) => l.filename === `/tmp/${tag}-nokeep.txt`);
    expect(log).toMatchObject({ is_success: true, has_file: false });
    expect((await admin.get(`/api/v1/audits/ftp-logs/${log.id}/file/download/`)).statusCode).toBe(404);
  }, 60_000);

  it('is paused and ended by the session tasks: locked operations are refused, a kill ends that folder only', async () => {
    fs.writeFileSync(`/tmp/${tag}-ctl.txt`, 'under control');
    const db = t.deps.database.db;
    const running = () =>
      db
        .selectFrom('terminal_session')
        .select(['id', 'account_id'])
        .where('type', '=', 'sftp')
        .where('is_finished', '=', false)
        .where('user', 'like', '%(sam)')
        .execute();
    const until = async (ok: () => Promise<boolean> | boolean, what: string) => {
      for (let i = 0; i < 300; i++) {
        if (await ok()) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`timed out waiting for ${what}; sftp said: ${client.output()}`);
    };
    const client = openSftp(port, 'sam', keys.sam.file, local);
    try {
      client.send(`cd /${target.host.name}/${target.password.name}`);
      client.send('ls');
      await until(async () => (await running()).length === 1, 'the session row');
      const [row] = await running();
      const TASKS = '/api/v1/terminal/tasks';
      const lock = await admin.post(`${TASKS}/toggle-lock-session/`, {
        session_id: row!.id,
        task_name: 'lock_session',
      });
      expect(lock.statusCode, lock.body).toBe(200);
      await until(async () => {
        const n = client.output().length;
        client.send(`-get ${tag}-ctl.txt ctl-locked.txt`);
        await until(() => client.output().length > n && /\n$/.test(client.output()), 'an answer');
        // Refused: the client reads PERMISSION_DENIED, or "not found" when it was its glob's listing.
        return /Permission denied|not found/.test(client.output().slice(n));
      }, 'the lock');
      expect(fs.existsSync(path.join(local, 'ctl-locked.txt'))).toBe(false);
      await admin.post(`${TASKS}/toggle-lock-session/`, { session_id: row!.id, task_name: 'unlock_session' });
      const got = path.join(local, 'ctl-unlocked.txt');
      await until(() => {
        client.send(`-get ${tag}-ctl.txt ctl-unlocked.txt`);
        return fs.existsSync(got) && fs.readFileSync(got, 'utf8') === 'under control';
      }, 'the unlock');

      // A second folder: its own session, which the kill of the first leaves alone.
      client.send(`ls /${target.host.name}/${target.key.name}`);
      await until(async () => (await running()).length === 2, 'the second session row');
      const kill = await admin.post(`${TASKS}/kill-session/`, [row!.id]);
      expect(kill.json()).toEqual({ ok: [row!.id] });
      await until(() => client.output().includes('terminated by an administrator'), 'the notice on stderr');
      expect(client.output()).toContain(`/${target.host.name}/${target.password.name}: This session was terminated`);
      const n = client.output().length;
      client.send(`-get ${tag}-ctl.txt ctl-killed.txt`);
      client.send(`get /${target.host.name}/${target.key.name}/${tag}-ctl.txt ctl-other.txt`);
      const other = path.join(local, 'ctl-other.txt');
      await until(() => fs.existsSync(other) && fs.readFileSync(other, 'utf8') === 'under control', 'the other folder');
      expect(fs.existsSync(path.join(local, 'ctl-killed.txt'))).toBe(false);
      expect(client.output().slice(n)).not.toContain('Connection closed');
      const left = await running();
      expect(left.map((r) => r.account_id)).toEqual([target.key.id]);
      client.send('bye');
      expect(await client.exited).toBe(0);
      await until(async () => (await running()).length === 0, 'the rows finished');
    } finally {
      client.stop();
    }
  }, 60_000);
});

describe('native SFTP: review rules and virtual accounts', () => {
  it('refuses a folder under a review rule with the ticket link, and serves it once approved', async () => {
    const vera = await makeUser(admin, 'vera');
    const key = userKeyPair();
    await t.deps.database.db
      .updateTable('users_user')
      .set({ public_key: key.publicKey })
      .where('id', '=', vera.id)
      .execute();
    await makePerm(admin, { users: [vera.id], assets: [target.host.id], accounts: ['@ALL'], actions: ['all'] });
    const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
    const rule = await admin.post('/api/v1/acls/login-asset-acls/', {
      name: 'vera waits',
      users: { type: 'ids', ids: [vera.id] },
      assets: { type: 'all' },
      accounts: ['@ALL'],
      action: 'review',
      reviewers: [adminId],
    });
    expect(rule.statusCode, rule.body).toBe(201);
    fs.writeFileSync(`/tmp/${tag}-rev.txt`, 'reviewed');
    const file = `/${target.host.name}/${target.password.name}/${tag}-rev.txt`;
    const held = await runSftp(port, 'vera', key.file, [`get ${file} rev.txt`], local);
    expect(held.code).not.toBe(0);
    expect(held.err).toContain("needs a reviewer's approval");
    const id = /\/ui\/tickets\/tickets\/([0-9a-f-]{36})\?type=login_asset_confirm/.exec(held.err)?.[1];
    expect(id, held.err).toBeDefined();
    expect(fs.existsSync(path.join(local, 'rev.txt'))).toBe(false);
    // Asked again: the same pending ticket.
    const again = await runSftp(port, 'vera', key.file, [`get ${file} rev.txt`], local);
    expect(again.err).toContain(id);
    expect((await put(admin, `${T}/apply-login-asset-tickets/${id}/approve/`)).statusCode).toBe(200);
    const ok = await runSftp(port, 'vera', key.file, [`get ${file} rev.txt`], local);
    expect(ok.code, ok.err).toBe(0);
    expect(fs.readFileSync(path.join(local, 'rev.txt'), 'utf8')).toBe('reviewed');
  }, 60_000);

  it('logs in to @USER with the password the user signed in with; @INPUT is not listed', async () => {
    // An asset whose only login is the Gatehouse user's own username and password.
    const own = await startShellSshd({ users: [{ username: 'ursula', password: PASSWORD }] });
    try {
      const host = await makeHost(admin, own.port);
      const ursula = await makeUser(admin, 'ursula');
      const key = userKeyPair();
      await t.deps.database.db
        .updateTable('users_user')
        .set({ public_key: key.publicKey })
        .where('id', '=', ursula.id)
        .execute();
      await makePerm(admin, { users: [ursula.id], assets: [host.id], accounts: ['@USER', '@INPUT'], actions: ['all'] });
      const data = randomBytes(100_000);
      fs.writeFileSync(path.join(local, 'mine.bin'), data);
      const r = await runSftp(
        port,
        'ursula',
        { password: PASSWORD },
        [
          `ls /${host.name}`,
          `cd /${host.name}/@USER`,
          `put mine.bin ${tag}-mine.bin`,
          `get ${tag}-mine.bin mine-back.bin`,
        ],
        local,
      );
      expect(r.code, r.err + r.out).toBe(0);
      expect(r.out).toContain('@USER');
      expect(r.out).not.toContain('@INPUT');
      expect(r.out + r.err).not.toContain(PASSWORD);
      expect(fs.readFileSync(path.join('/tmp', `${tag}-mine.bin`)).equals(data)).toBe(true);
      expect(fs.readFileSync(path.join(local, 'mine-back.bin')).equals(data)).toBe(true);
      const rows = await t.deps.database.db
        .selectFrom('terminal_session')
        .select(['account', 'account_id'])
        .where('asset_id', '=', host.id)
        .where('type', '=', 'sftp')
        .execute();
      expect(rows).toEqual([{ account: '@USER(ursula)', account_id: '@USER' }]);
      // Signed in with a key there is no password to log in with: no @USER folder either.
      const byKey = await runSftp(port, 'ursula', key.file, [`ls /${host.name}`], local);
      expect(byKey.code, byKey.err).toBe(0);
      expect(byKey.out).not.toContain('@USER');
    } finally {
      own.stop();
    }
  }, 60_000);
});
