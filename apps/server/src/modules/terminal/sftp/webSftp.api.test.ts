import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { makePerm, makeUser, PASSWORD } from '../../../../test-support/perms.ts';
import { ACCOUNTS, makeHost } from '../../../../test-support/accounts.ts';
import { hostWithAccounts } from '../../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../../test-support/sshd.ts';
import { WEB_SFTP_API } from './webSftpRoutes.ts';

/**
 * The web file manager's API against a real sshd asset (SFTP root /tmp): opened from the user's
 * own web_sftp connection token, list/upload/download/mkdir/rename/delete with their ftp-log rows,
 * the actions enforced, the root kept, and the session only for its user with the CSRF header.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
let target: { host: any; password: any; key: any };
const clients: Record<string, SessionClient> = {};
const tag = `gh-web-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  target = await hostWithAccounts(admin, sshd);
  for (const [name, actions] of [
    ['wendy', ['all']],
    ['vera', ['connect', 'download']],
    ['eve', ['connect']],
    ['lara', ['all']],
  ] as const) {
    const u = await makeUser(admin, name);
    await makePerm(admin, { users: [u.id], assets: [target.host.id], accounts: ['@ALL'], actions: [...actions] });
    const c = new SessionClient(t.app);
    expect((await c.login(name, PASSWORD)).statusCode).toBe(200);
    clients[name] = c;
  }
}, 30_000);
afterAll(async () => {
  for (const f of fs.readdirSync('/tmp').filter((n) => n.startsWith(tag)))
    fs.rmSync(path.join('/tmp', f), { recursive: true, force: true });
  sshd?.stop();
  await t?.close();
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await probe();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The running sftp session rows of a user. */
const runningOf = (name: string) =>
  t.deps.database.db
    .selectFrom('terminal_session')
    .select(['id', 'is_finished', 'is_locked'])
    .where('type', '=', 'sftp')
    .where('is_finished', '=', false)
    .where('user', 'like', `%(${name})`)
    .execute();

async function openFor(name: string): Promise<string> {
  const c = clients[name]!;
  const token = await c.post('/api/v1/authentication/connection-token/', {
    asset: target.host.id,
    account: target.password.name,
    protocol: 'sftp',
    connect_method: 'web_sftp',
  });
  expect(token.statusCode, token.body).toBe(201);
  const opened = await c.post(`${WEB_SFTP_API}open/`, { token: token.json().id });
  expect(opened.statusCode, opened.body).toBe(200);
  expect(opened.json()).toMatchObject({ home: '/tmp', asset: { id: target.host.id } });
  return opened.json().id;
}

function multipart(name: string, data: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----gh${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (c: SessionClient, id: string, dir: string, name: string, data: Buffer) => {
  const m = multipart(name, data);
  return c.request({
    method: 'POST',
    url: `${WEB_SFTP_API}${id}/upload/?path=${encodeURIComponent(dir)}`,
    payload: m.payload,
    headers: m.headers,
  });
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
const ftpLogs = async (): Promise<any[]> => (await admin.get('/api/v1/audits/ftp-logs/?limit=200')).json().results;

describe('web file manager API', () => {
  it('uploads, lists, downloads, makes, renames and deletes, each logged, in one sftp session row', async () => {
    const c = clients.wendy!;
    const id = await openFor('wendy');
    const data = randomBytes(200_000);
    const up = await upload(c, id, '/', `${tag}.bin`, data);
    expect(up.statusCode, up.body).toBe(200);
    expect(fs.readFileSync(`/tmp/${tag}.bin`).equals(data)).toBe(true);
    const listed = (await c.get(`${WEB_SFTP_API}${id}/list/?path=/`)).json();
    expect(listed.entries).toContainEqual(expect.objectContaining({ name: `${tag}.bin`, size: 200_000, type: 'file' }));
    const down = await c.get(`${WEB_SFTP_API}${id}/download/?path=${tag}.bin`);
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-disposition']).toContain(`${tag}.bin`);
    expect(down.rawPayload.equals(data)).toBe(true);
    expect((await c.post(`${WEB_SFTP_API}${id}/mkdir/`, { path: `${tag}-d` })).statusCode).toBe(200);
    expect(fs.statSync(`/tmp/${tag}-d`).isDirectory()).toBe(true);
    const renamed = await c.post(`${WEB_SFTP_API}${id}/rename/`, { from: `${tag}.bin`, to: `${tag}-d/moved.bin` });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await c.post(`${WEB_SFTP_API}${id}/delete/`, { path: `${tag}-d/moved.bin` })).statusCode).toBe(200);
    expect((await c.post(`${WEB_SFTP_API}${id}/delete/`, { path: `${tag}-d` })).statusCode).toBe(200);
    expect(fs.existsSync(`/tmp/${tag}-d`)).toBe(false);
    expect((await c.post(`${WEB_SFTP_API}${id}/close/`, {})).statusCode).toBe(200);

    // The download's row is written when its stream ends.
    let logs: Awaited<ReturnType<typeof ftpLogs>> = [];
    for (let i = 0; i < 100 && logs.length < 6; i++) {
      logs = (await ftpLogs()).filter((l) => l.user.includes('(wendy)'));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(logs.map((l) => l.operate.value).sort()).toEqual([
      'delete',
      'download',
      'mkdir',
      'rename',
      'rmdir',
      'upload',
    ]);
    expect(logs.every((l) => l.is_success)).toBe(true);
    const kept = logs.find((l) => l.operate.value === 'upload');
    expect(kept.has_file).toBe(true);
    expect((await admin.get(`/api/v1/audits/ftp-logs/${kept.id}/file/download/`)).rawPayload.equals(data)).toBe(true);
    const sessions = (await admin.get('/api/v1/terminal/sessions/?type=sftp&login_from=WT')).json();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
    const mine = (sessions.results ?? sessions).filter((s: any) => s.user.includes('(wendy)'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ protocol: 'sftp', is_finished: true });
    // Closed: the session is gone.
    expect((await c.get(`${WEB_SFTP_API}${id}/list/?path=/`)).statusCode).toBe(404);
  }, 60_000);

  it('refuses what the permission does not allow (403, logged), and lets download through', async () => {
    fs.writeFileSync(`/tmp/${tag}-ro.txt`, 'read only');
    const c = clients.vera!;
    const id = await openFor('vera');
    expect((await c.get(`${WEB_SFTP_API}${id}/download/?path=${tag}-ro.txt`)).body).toBe('read only');
    const up = await upload(c, id, '/', `${tag}-no.txt`, Buffer.from('no'));
    expect(up.statusCode).toBe(403);
    expect(up.json().detail).toContain('upload');
    expect((await c.post(`${WEB_SFTP_API}${id}/delete/`, { path: `${tag}-ro.txt` })).statusCode).toBe(403);
    expect((await c.post(`${WEB_SFTP_API}${id}/mkdir/`, { path: `${tag}-nod` })).statusCode).toBe(403);
    expect(fs.existsSync(`/tmp/${tag}-no.txt`)).toBe(false);
    expect(fs.existsSync(`/tmp/${tag}-ro.txt`)).toBe(true);
    const refused = (await ftpLogs()).filter((l) => l.user.includes('(vera)') && !l.is_success);
    expect(refused.map((l) => l.operate.value).sort()).toEqual(['delete', 'mkdir', 'upload']);
  }, 60_000);

  it('keeps paths inside the root: .., absolute paths and symlinks out are refused', async () => {
    fs.symlinkSync('/etc', `/tmp/${tag}-etc`);
    const c = clients.wendy!;
    const id = await openFor('wendy');
    const dots = await c.get(`${WEB_SFTP_API}${id}/download/?path=../etc/hostname`);
    // `..` cannot climb above the root: this is /tmp/etc/hostname, which does not exist.
    expect(dots.statusCode).toBe(400);
    expect((await c.get(`${WEB_SFTP_API}${id}/download/?path=${tag}-etc/hostname`)).statusCode).toBe(403);
    expect((await c.get(`${WEB_SFTP_API}${id}/list/?path=${tag}-etc`)).statusCode).toBe(403);
    const up = await upload(c, id, '/', '../../etc/evil', Buffer.from('x'));
    // The file name is reduced to its last part: it lands in the root.
    expect(up.statusCode, up.body).toBe(200);
    expect(fs.existsSync('/etc/evil')).toBe(false);
    fs.rmSync('/tmp/evil', { force: true });
    expect((await c.post(`${WEB_SFTP_API}${id}/delete/`, { path: '/' })).statusCode).toBe(403);
  }, 60_000);

  it('uploads beside a file of the same name when the koko preference says suffix', async () => {
    const c = clients.wendy!;
    const id = await openFor('wendy');
    expect((await upload(c, id, '/', `${tag}-same.txt`, Buffer.from('one'))).statusCode).toBe(200);
    expect((await upload(c, id, '/', `${tag}-same.txt`, Buffer.from('two'))).json()).toEqual({
      name: `${tag}-same.txt`,
    });
    expect(fs.readFileSync(`/tmp/${tag}-same.txt`, 'utf8')).toBe('two');
    const pref = await c.request({
      method: 'PATCH',
      url: '/api/v1/users/preference/?category=koko',
      payload: { basic: { file_name_conflict_resolution: 'suffix' } },
    });
    expect(pref.statusCode, pref.body).toBe(200);
    expect((await upload(c, id, '/', `${tag}-same.txt`, Buffer.from('three'))).json()).toEqual({
      name: `${tag}-same_1.txt`,
    });
    expect(fs.readFileSync(`/tmp/${tag}-same.txt`, 'utf8')).toBe('two');
    expect(fs.readFileSync(`/tmp/${tag}-same_1.txt`, 'utf8')).toBe('three');
  }, 60_000);

  it('refuses an account reached with su (SFTP cannot switch users), leaving an unsuccessful session row', async () => {
    const platform = await admin.post('/api/v1/assets/platforms/', {
      name: 'Linux su sftp',
      category: 'host',
      type: 'linux',
      su_enabled: true,
      su_method: 'su',
      protocols: [{ name: 'ssh', port: 22 }],
    });
    expect(platform.statusCode, platform.body).toBe(201);
    const host = await makeHost(admin, sshd.port, { platform: 'Linux su sftp' });
    const plain = (
      await admin.post(ACCOUNTS, { asset: host.id, username: 'plainuser', secret: 'Plain-pass-1' })
    ).json();
    const su = (
      await admin.post(ACCOUNTS, { asset: host.id, username: sshd.username, secret: sshd.password, su_from: plain.id })
    ).json();
    const u = await makeUser(admin, 'suzy');
    await makePerm(admin, { users: [u.id], assets: [host.id], accounts: [sshd.username], actions: ['all'] });
    const c = new SessionClient(t.app);
    expect((await c.login('suzy', PASSWORD)).statusCode).toBe(200);
    const token = await c.post('/api/v1/authentication/connection-token/', {
      asset: host.id,
      account: su.name,
      protocol: 'sftp',
      connect_method: 'web_sftp',
    });
    expect(token.statusCode, token.body).toBe(201);
    const opened = await c.post(`${WEB_SFTP_API}open/`, { token: token.json().id });
    expect(opened.statusCode).toBe(400);
    expect(opened.json()).toMatchObject({ code: 'sftp_su_unsupported' });
    const rows = await t.deps.database.db
      .selectFrom('terminal_session')
      .selectAll()
      .where('asset_id', '=', host.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'sftp', login_from: 'WT' });
    expect(Boolean(rows[0]!.is_success)).toBe(false);
  }, 60_000);

  it('serves the page to signed-in users and sends anyone else to the login page', async () => {
    const anon = await new SessionClient(t.app).get('/koko/elfinder/sftp/?asset=x');
    expect(anon.statusCode).toBe(302);
    expect(anon.headers.location).toBe(`/core/auth/login/?next=${encodeURIComponent('/koko/elfinder/sftp/?asset=x')}`);
    // Signed in: the page (or 503 when the console is not built in this checkout).
    expect([200, 503]).toContain((await clients.wendy!.get('/koko/elfinder/sftp/?asset=x')).statusCode);
  });

  it('is only for the token owner, signed in, with the CSRF header', async () => {
    const id = await openFor('wendy');
    expect((await clients.eve!.get(`${WEB_SFTP_API}${id}/list/?path=/`)).statusCode).toBe(404);
    const anon = new SessionClient(t.app);
    expect((await anon.get(`${WEB_SFTP_API}${id}/list/?path=/`)).statusCode).toBe(401);
    // Without the CSRF header the session cookie does not count.
    const noCsrf = await clients.wendy!.request({
      method: 'POST',
      url: `${WEB_SFTP_API}${id}/mkdir/`,
      payload: { path: `${tag}-csrf` },
      headers: { 'x-csrftoken': 'wrong' },
    });
    expect(noCsrf.statusCode).toBe(401);
    expect(fs.existsSync(`/tmp/${tag}-csrf`)).toBe(false);
    // Someone else's token cannot be spent; a web_cli token does not open the file manager.
    const token = await clients.wendy!.post('/api/v1/authentication/connection-token/', {
      asset: target.host.id,
      account: target.password.name,
      protocol: 'ssh',
      connect_method: 'web_cli',
    });
    expect((await clients.eve!.post(`${WEB_SFTP_API}open/`, { token: token.json().id })).statusCode).toBe(404);
    const other = await clients.wendy!.post('/api/v1/authentication/connection-token/', {
      asset: target.host.id,
      account: target.password.name,
      protocol: 'ssh',
      connect_method: 'web_cli',
    });
    expect((await clients.wendy!.post(`${WEB_SFTP_API}open/`, { token: other.json().id })).statusCode).toBe(400);
  }, 60_000);

  it('is paused and ended by the session tasks: locked requests get 423, a killed session 410 then 404', async () => {
    const c = clients.lara!;
    const id = await openFor('lara');
    const [row] = await runningOf('lara');
    expect(row).toBeDefined();
    const TASKS = '/api/v1/terminal/tasks';
    const lock = await admin.post(`${TASKS}/toggle-lock-session/`, { session_id: row!.id, task_name: 'lock_session' });
    expect(lock.statusCode, lock.body).toBe(200);
    const locked = await until(
      () => c.get(`${WEB_SFTP_API}${id}/list/?path=/`),
      (r) => r.statusCode === 423,
      'the lock',
    );
    expect(locked.json()).toMatchObject({ code: 'sftp_session_locked' });
    expect(locked.json().detail).toContain('paused by an administrator');
    expect((await c.post(`${WEB_SFTP_API}${id}/mkdir/`, { path: `${tag}-locked` })).statusCode).toBe(423);
    expect(fs.existsSync(`/tmp/${tag}-locked`)).toBe(false);
    await admin.post(`${TASKS}/toggle-lock-session/`, { session_id: row!.id, task_name: 'unlock_session' });
    await until(
      () => c.get(`${WEB_SFTP_API}${id}/list/?path=/`),
      (r) => r.statusCode === 200,
      'the unlock',
    );

    const kill = await admin.post(`${TASKS}/kill-session/`, [row!.id]);
    expect(kill.json()).toEqual({ ok: [row!.id] });
    await until(
      () => runningOf('lara'),
      (rows) => rows.length === 0,
      'the row finished',
    );
    const killed = await c.get(`${WEB_SFTP_API}${id}/list/?path=/`);
    expect(killed.statusCode).toBe(410);
    expect(killed.json().detail).toContain('terminated by an administrator');
    // Said once; afterwards the session is simply gone.
    expect((await c.get(`${WEB_SFTP_API}${id}/list/?path=/`)).statusCode).toBe(404);
  }, 60_000);

  it('closes after SECURITY_MAX_IDLE_TIME without a request', async () => {
    const before = await t.deps.settings.get('SECURITY_MAX_IDLE_TIME');
    // A fraction of a minute (3 s) so the test does not wait for minutes. The sign-in session has
    // the same idle limit: sign in again first, then keep requests closer than that.
    await t.deps.settings.set('SECURITY_MAX_IDLE_TIME', 0.05);
    try {
      const c = clients.lara!;
      expect((await c.login('lara', PASSWORD)).statusCode).toBe(200);
      const id = await openFor('lara');
      expect((await c.get(`${WEB_SFTP_API}${id}/list/?path=/`)).statusCode).toBe(200);
      expect(await runningOf('lara')).toHaveLength(1);
      await until(
        () => runningOf('lara'),
        (rows) => rows.length === 0,
        'the idle close',
      );
    } finally {
      await t.deps.settings.set('SECURITY_MAX_IDLE_TIME', before);
    }
    const c = clients.lara!;
    expect((await c.login('lara', PASSWORD)).statusCode).toBe(200);
    const [last] = await t.deps.database.db
      .selectFrom('terminal_session')
      .select(['date_start', 'date_end'])
      .where('user', 'like', '%(lara)')
      .orderBy('date_start', 'desc')
      .execute();
    expect(new Date(last!.date_end!).getTime() - new Date(last!.date_start).getTime()).toBeGreaterThanOrEqual(2_900);
  }, 60_000);

  it('closes at SECURITY_MAX_SESSION_TIME even while in use', async () => {
    const before = await t.deps.settings.get('SECURITY_MAX_SESSION_TIME');
    const c = clients.lara!;
    // A fraction of an hour (3.6 s); the sign-in has the same limit, so sign in again afterwards.
    await t.deps.settings.set('SECURITY_MAX_SESSION_TIME', 0.001);
    let id = '';
    try {
      expect((await c.login('lara', PASSWORD)).statusCode).toBe(200);
      id = await openFor('lara');
      // Requests keep it from being idle; the maximum still ends it.
      await until(
        async () => {
          await c.get(`${WEB_SFTP_API}${id}/list/?path=/`);
          return runningOf('lara');
        },
        (rows) => rows.length === 0,
        'the maximum time',
      );
    } finally {
      await t.deps.settings.set('SECURITY_MAX_SESSION_TIME', before);
    }
    expect((await c.login('lara', PASSWORD)).statusCode).toBe(200);
    expect((await c.get(`${WEB_SFTP_API}${id}/list/?path=/`)).statusCode).toBe(404);
  }, 60_000);
});
