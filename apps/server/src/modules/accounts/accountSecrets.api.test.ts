import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { SessionClient, TEST_DB, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD, createUser } from '../../../test-support/auth.ts';
import { ACCOUNTS, SECRETS, ageConfirm, captureLogs, confirmAdmin, makeHost } from '../../../test-support/accounts.ts';

/**
 * The vault's promises about secrets: every secret type is stored sealed (the database holds no
 * plain secret), secrets never leave in lists, details, exports, 400 bodies or logs, reading one
 * needs the secret permission and a fresh re-verification and is logged, and every version is kept.
 */
let t: TestApp;
let admin: SessionClient;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'trace' });
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => t?.close());

/** An OpenSSH key pair (ssh-keygen's own fingerprint alongside), optionally with a passphrase. */
function sshKey(passphrase = ''): { key: string; fingerprint: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-key-'));
  const file = path.join(dir, 'k');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-f', file]);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', `${file}.pub`])
    .toString()
    .split(' ')[1]!;
  const key = fs.readFileSync(file, 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  return { key, fingerprint };
}

/** Every stored secret column as the database holds it. */
async function storedSecrets(): Promise<string[]> {
  const db = t.deps.database.db;
  const rows = [
    ...(await db.selectFrom('accounts_account').select(['secret', 'passphrase']).execute()),
    ...(await db.selectFrom('accounts_accounthistory').select(['secret', 'passphrase']).execute()),
    ...(await db.selectFrom('accounts_accounttemplate').select(['secret', 'passphrase']).execute()),
  ];
  return rows.flatMap((r) => [r.secret, r.passphrase]).filter((v): v is string => v !== null);
}

/** The whole database as bytes (SQLite: the file and its WAL) or as text (PostgreSQL: a dump of the tables). */
async function databaseText(): Promise<string> {
  if (TEST_DB === 'sqlite') {
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.deps.database.db);
    const file = path.join(t.dataDir, 'gatehouse.sqlite');
    const parts = [file, `${file}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'));
    return parts.join('\n');
  }
  const out: string[] = [];
  for (const table of [
    'accounts_account',
    'accounts_accounthistory',
    'accounts_accounttemplate',
    'audits_operatelog',
  ]) {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(t.deps.database.db);
    out.push(JSON.stringify(rows.rows));
  }
  return out.join('\n');
}

describe('account secrets at rest', () => {
  const plain = {
    password: 'Pl@in-Passw0rd-never-stored',
    access_key: 'AKIA-plain-access-key-never-stored',
    token: 'tok-plain-token-never-stored-1234',
    api_key: 'sk-plain-api-key-never-stored-5678',
  };
  const passphrase = 'plain-passphrase-never-stored';
  let key: ReturnType<typeof sshKey>;
  const ids: Record<string, string> = {};

  it('stores every secret type sealed and gives it back only through account-secrets/', async () => {
    key = sshKey(passphrase);
    const host = await makeHost(admin);
    for (const [type, secret] of Object.entries(plain)) {
      const res = await admin.post(ACCOUNTS, { asset: host.id, username: `u_${type}`, secret_type: type, secret });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.body).not.toContain(secret);
      ids[type] = res.json().id;
    }
    const k = await admin.post(ACCOUNTS, {
      asset: host.id,
      username: 'u_key',
      secret_type: 'ssh_key',
      secret: key.key,
      passphrase,
    });
    expect(k.statusCode, k.body).toBe(201);
    expect(k.json().spec_info).toEqual({ ssh_key_fingerprint: key.fingerprint });
    expect(k.json().version).toBe(1);
    ids.ssh_key = k.json().id;

    const stored = await storedSecrets();
    expect(stored.length).toBeGreaterThanOrEqual(12);
    for (const s of stored) expect(s).toMatch(/^gh1\$/);
    const everything = await databaseText();
    for (const secret of [...Object.values(plain), passphrase, key.key.split('\n')[1]!])
      expect(everything.includes(secret), 'a plain secret is in the database').toBe(false);

    await confirmAdmin(admin);
    for (const [type, secret] of Object.entries(plain)) {
      const one = (await admin.get(`${SECRETS}${ids[type]}/`)).json();
      expect(one.secret).toBe(secret);
    }
    const k2 = (await admin.get(`${SECRETS}${ids.ssh_key}/`)).json();
    expect(k2).toMatchObject({ secret: key.key, passphrase, username: 'u_key' });
    expect(ssh2.utils.parseKey(k2.secret, k2.passphrase)).not.toBeInstanceOf(Error);
  });

  it('never shows a secret in lists, details, the plain export or the operate log', async () => {
    const bodies = [
      (await admin.get(ACCOUNTS)).body,
      (await admin.get(`${ACCOUNTS}?limit=10`)).body,
      (await admin.get(`${ACCOUNTS}${ids.password}/`)).body,
      (await admin.get(`${ACCOUNTS}?format=csv`)).body,
      (await admin.get('/api/v1/audits/operate-logs/')).body,
    ];
    const detail = (await admin.get(`${ACCOUNTS}${ids.password}/`)).json();
    expect(detail).toMatchObject({ has_secret: true, secret_type: { value: 'password', label: 'Password' } });
    expect('secret' in detail).toBe(false);
    const logs = await t.deps.database.db.selectFrom('audits_operatelog').select('diff').execute();
    bodies.push(JSON.stringify(logs));
    for (const b of bodies)
      for (const secret of [...Object.values(plain), passphrase, key.key.split('\n')[1]!])
        expect(b).not.toContain(secret);
    expect(JSON.stringify(logs)).toContain('******');
  });

  it('keeps secrets out of 400 answers and out of the log', async () => {
    const logs = captureLogs(t);
    try {
      const host = await makeHost(admin);
      const badKey = 'not-a-key-but-a-SECRET-9f8e7d';
      const r1 = await admin.post(ACCOUNTS, {
        asset: host.id,
        username: 'bad',
        secret_type: 'ssh_key',
        secret: badKey,
      });
      expect(r1.statusCode).toBe(400);
      expect(r1.json().secret[0]).toMatch(/not a private SSH key/);
      const enc = sshKey('right-pass-SECRET-77');
      const r2 = await admin.post(ACCOUNTS, {
        asset: host.id,
        username: 'bad2',
        secret_type: 'ssh_key',
        secret: enc.key,
        passphrase: 'wrong-pass-SECRET-66',
      });
      expect(r2.statusCode).toBe(400);
      expect(r2.json()).toEqual({ passphrase: ['The passphrase does not open this SSH key.'] });
      const r3 = await admin.post(ACCOUNTS, {
        asset: host.id,
        username: 'bad3',
        secret: 'quote"SECRET-55',
      });
      expect(r3.json()).toEqual({ secret: ['Password can not contain `"`.'] });
      const zh = await admin.post(
        ACCOUNTS,
        { asset: host.id, username: 'bad4', secret_type: 'ssh_key', secret: enc.key },
        { 'accept-language': 'zh' },
      );
      expect(zh.json().passphrase[0]).toBe('SSH 密钥已加密，请填写密钥密码。');
      // A server error on the way must not carry the body either.
      const r5 = await admin.request({
        method: 'POST',
        url: ACCOUNTS,
        payload: '{"asset": "x", "secret": "broken-json-SECRET-44"',
        headers: { 'content-type': 'application/json' },
      });
      expect(r5.statusCode).toBe(400);
      // Writes and reads of secrets are logged (without the secret).
      const good = await admin.post(ACCOUNTS, { asset: host.id, username: 'good', secret: 'Pl@in-Passw0rd-SECRET-33' });
      await confirmAdmin(admin);
      expect((await admin.get(`${SECRETS}${good.json().id}/`)).json().secret).toBe('Pl@in-Passw0rd-SECRET-33');
      for (const r of [r1, r2, r3, zh, r5])
        for (const s of ['SECRET-9f8e7d', 'SECRET-77', 'SECRET-66', 'SECRET-55', 'SECRET-44'])
          expect(r.body).not.toContain(s);
      expect(logs.lines.some((l) => l.includes('account secret changed') && l.includes(good.json().id))).toBe(true);
      expect(logs.lines.some((l) => l.includes('secret viewed') && l.includes(good.json().id))).toBe(true);
      for (const l of logs.lines) expect(l).not.toMatch(/SECRET-|Pl@in-Passw0rd/);
    } finally {
      logs.stop();
    }
  });
});

describe('reading secrets', () => {
  it('needs the secret permission, then a re-verification that expires, and logs who read what from where', async () => {
    const host = await makeHost(admin);
    const acc = (await admin.post(ACCOUNTS, { asset: host.id, username: 'reader', secret: 'Read-me-1' })).json();
    await ageConfirm(t, admin, 10_000);
    const stale = await admin.get(`${SECRETS}${acc.id}/`);
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ code: 'password', detail: 'This action require confirm current user' });
    expect((await admin.get(`${SECRETS}${acc.id}/histories/`)).statusCode).toBe(400);
    expect((await admin.get(`${SECRETS}?format=csv`)).statusCode).toBe(400);
    await confirmAdmin(admin);
    const ok = await admin.get(`${SECRETS}${acc.id}/`);
    expect(ok.json().secret).toBe('Read-me-1');
    const csv = await admin.get(`${SECRETS}?format=csv&asset=${host.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Read-me-1');
    await ageConfirm(t, admin, 301);
    expect((await admin.get(`${SECRETS}${acc.id}/`)).statusCode).toBe(400);

    const views = await t.deps.database.db
      .selectFrom('audits_operatelog')
      .selectAll()
      .where('action', '=', 'view')
      .orderBy('datetime')
      .execute();
    const mine = views.find((v) => v.resource_id === acc.id)!;
    expect(mine).toMatchObject({ user: 'Administrator(admin)', remote_addr: '127.0.0.1', resource_type: 'account' });
    expect(mine.resource).toBe(`reader(reader)@${host.name}`);
    expect(views.some((v) => v.resource.includes(`asset=${host.id}`))).toBe(true);

    await createUser(t, 'acc_auditor');
    const userId = (
      await t.deps.database.db
        .selectFrom('users_user')
        .select('id')
        .where('username', '=', 'acc_auditor')
        .executeTakeFirstOrThrow()
    ).id;
    await t.deps.database.db
      .insertInto('rbac_rolebinding')
      .values({
        id: crypto.randomUUID(),
        user_id: userId,
        role_id: BUILTIN_ROLE_IDS.OrgAuditor,
        scope: 'org',
        org_id: '00000000-0000-0000-0000-000000000002',
        created_by: 'test',
        date_created: new Date().toISOString(),
      })
      .execute();
    const auditor = new SessionClient(t.app);
    await auditor.login('acc_auditor', USER_PASSWORD);
    expect((await auditor.get(`${SECRETS}${acc.id}/`)).statusCode).toBe(403);
    expect((await auditor.get(ACCOUNTS)).statusCode).toBe(403);
  });

  it('keeps every version of a secret with its date and author; the history omits the current one', async () => {
    const host = await makeHost(admin);
    const acc = (await admin.post(ACCOUNTS, { asset: host.id, username: 'hist', secret: 'Version-1' })).json();
    expect(acc.version).toBe(1);
    expect(
      (await admin.request({ method: 'PATCH', url: `${ACCOUNTS}${acc.id}/`, payload: { secret: 'Version-2' } })).json()
        .version,
    ).toBe(2);
    // An empty secret in a form keeps the stored one.
    expect(
      (
        await admin.request({ method: 'PATCH', url: `${ACCOUNTS}${acc.id}/`, payload: { secret: '', comment: 'c' } })
      ).json().version,
    ).toBe(2);
    await admin.request({ method: 'PATCH', url: `${ACCOUNTS}${acc.id}/`, payload: { secret: 'Version-3' } });
    await confirmAdmin(admin);
    const h = (await admin.get(`${SECRETS}${acc.id}/histories/`)).json();
    expect(h.map((x: { version: number; secret: string }) => [x.version, x.secret])).toEqual([
      [2, 'Version-2'],
      [1, 'Version-1'],
    ]);
    expect(h[0]).toMatchObject({ history_user: 'Administrator(admin)', secret_type: { value: 'password' } });
    expect(h[0].history_date).toMatch(/^\d{4}\/\d{2}\/\d{2}/);
    const cleared = await admin.request({
      method: 'PATCH',
      url: `${ACCOUNTS}clear-secret/`,
      payload: { account_ids: [acc.id] },
    });
    expect(cleared.statusCode).toBe(200);
    const log = await t.deps.database.db
      .selectFrom('audits_operatelog')
      .select(['action', 'diff'])
      .where('resource_id', '=', acc.id)
      .orderBy('datetime', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toEqual({ action: 'update', diff: JSON.stringify([{ field: 'secret', before: '******', after: '' }]) });
    const after = (await admin.get(`${SECRETS}${acc.id}/`)).json();
    expect(after).toMatchObject({ secret: null, has_secret: false, version: 4 });
    const h2 = (await admin.get(`${SECRETS}${acc.id}/histories/`)).json();
    expect(h2[0]).toMatchObject({ version: 3, secret: 'Version-3' });
  });
});
