import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPost } from '../../../../test-support/accounts.ts';
import { dbAsset, scratchMysql, scratchPg, type ScratchDb } from '../../../../test-support/dbAssets.ts';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { taskEnded } from '../../../../test-support/taskLog.ts';

/**
 * The connectivity test of database assets and the verification of their accounts by the
 * databases' own protocols, against the machine's PostgreSQL and MariaDB: a port that only accepts
 * TCP is not the database, a wrong password is an error.
 */
let t: TestApp;
let admin: SessionClient;
let pgDb: ScratchDb;
let myDb: ScratchDb;
let silent: net.Server;

beforeAll(async () => {
  [pgDb, myDb] = await Promise.all([scratchPg(), scratchMysql()]);
  t = await createTestApp();
  admin = await adminClient(t.app);
  // Accepts connections and says nothing: reachable by TCP, not a database.
  silent = net.createServer((s) => s.on('error', () => undefined).end());
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
}, 60_000);

afterAll(async () => {
  silent?.close();
  await t?.close();
  await Promise.all([pgDb?.drop(), myDb?.drop()]);
});

const finished = (task: string) => taskEnded(admin, task);

describe('database assets and accounts tested by their own protocol', () => {
  it('probes the server: PostgreSQL and MariaDB answer, a silent port is not a database', async () => {
    const post = apiPost(admin);
    const pgA = await dbAsset(post, 'postgresql', pgDb);
    const myA = await dbAsset(post, 'mariadb', myDb);
    const fake = await dbAsset(post, 'postgresql', pgDb, { port: (silent.address() as net.AddressInfo).port });
    const res = await admin.post('/api/v1/assets/assets/tasks/', {
      action: 'test',
      assets: [pgA.asset.id, myA.asset.id, fake.asset.id],
    });
    await finished(res.json().task);
    const state = async (id: string) => (await admin.get(`/api/v1/assets/databases/${id}/`)).json().connectivity.value;
    expect(await state(pgA.asset.id)).toBe('ok');
    expect(await state(myA.asset.id)).toBe('ok');
    expect(await state(fake.asset.id)).toBe('err');
  });

  it('verifies accounts by logging in: the right password ok, a wrong one an error', async () => {
    const post = apiPost(admin);
    const pgA = await dbAsset(post, 'postgresql', pgDb);
    const myA = await dbAsset(post, 'mysql', myDb);
    const myWrong = await dbAsset(post, 'mysql', { ...myDb, password: 'Wrong-pass-1' });
    const res = await admin.post('/api/v1/accounts/accounts/tasks/', {
      action: 'verify',
      accounts: [pgA.account.id, myA.account.id, myWrong.account.id],
    });
    expect(res.statusCode).toBe(200);
    const s = await finished(res.json().task);
    expect(s.results.map((r: { connectivity: string }) => r.connectivity)).toEqual(['ok', 'ok', 'err']);
    expect(s.results[2].error).toMatch(/Access denied/);
  });
});
