import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_IDS } from '@gatehouse/contract';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { createUser, USER_PASSWORD } from '../../../test-support/auth.ts';
import { seedCommands, seedSession } from '../../../test-support/auditSeed.ts';
import { commandResource } from './commandResource.ts';

/**
 * The commands list's search (`search`, `input`) through the substring index of migration 0700
 * (FTS5 trigram on SQLite, pg_trgm on PostgreSQL): substrings of any length, case-insensitive,
 * quotes and LIKE wildcards taken literally, rows inserted after the index are found, the org
 * boundary and the permission hold.
 */
let t: TestApp;
let admin: SessionClient;
let orgB: string;
const URL = '/api/v1/terminal/commands/';
const inputs = (res: { json(): unknown }) =>
  ((res.json() as { input: string }[]).map((c) => c.input) as string[]).sort();

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Search org B' })).json().id;
  const db = t.deps.database.db;
  const now = Date.now();
  const s = await seedSession(db, { date_start: new Date(now).toISOString() });
  const sb = await seedSession(db, { date_start: new Date(now).toISOString(), org_id: orgB });
  await seedCommands(db, s, [
    { input: 'systemctl restart nginx', timestamp_ms: now - 4000 },
    { input: 'SYSTEMCTL status sshd', timestamp_ms: now - 3000 },
    { input: 'echo "50% done"', timestamp_ms: now - 2000 },
    { input: 'ls -la /var/log', timestamp_ms: now - 1000, risk_level: 5 },
    { input: 'cat /etc/passwd_old', timestamp_ms: now },
  ]);
  await seedCommands(db, sb, [{ input: 'systemctl stop firewalld', timestamp_ms: now, org_id: orgB }]);
}, 30_000);
afterAll(async () => {
  await t?.close();
});

describe('command search', () => {
  it('finds substrings of the input, case-insensitive, through search and input', async () => {
    expect(inputs(await admin.get(`${URL}?search=systemctl`))).toEqual([
      'SYSTEMCTL status sshd',
      'systemctl restart nginx',
    ]);
    expect(inputs(await admin.get(`${URL}?input=STEMCTL%20RES`))).toEqual(['systemctl restart nginx']);
    // Two characters: shorter than a trigram, still a substring match.
    expect(inputs(await admin.get(`${URL}?input=la`))).toEqual(['ls -la /var/log']);
    // Several words: every one must match (the list's search rule).
    expect(inputs(await admin.get(`${URL}?search=systemctl%20nginx`))).toEqual(['systemctl restart nginx']);
    expect((await admin.get(`${URL}?search=nothing-like-this`)).json()).toEqual([]);
  });

  it('takes quotes and LIKE wildcards literally', async () => {
    expect(inputs(await admin.get(`${URL}?input=${encodeURIComponent('"50% d')}`))).toEqual(['echo "50% done"']);
    expect(inputs(await admin.get(`${URL}?input=${encodeURIComponent('d_o')}`))).toEqual(['cat /etc/passwd_old']);
    expect((await admin.get(`${URL}?input=${encodeURIComponent('%%%')}`)).json()).toEqual([]);
    expect((await admin.get(`${URL}?input=${encodeURIComponent('" OR "')}`)).statusCode).toBe(200);
    for (const odd of ['\u0000sys', 'NEAR(a b)', '*', '((("', 'é€😀'])
      expect((await admin.get(`${URL}?search=${encodeURIComponent(odd)}`)).json(), odd).toEqual([]);
  });

  it('combines with the other filters and keeps the newest first', async () => {
    const res = (await admin.get(`${URL}?search=s&risk_level=5`)).json() as { input: string }[];
    expect(res.map((c) => c.input)).toEqual(['ls -la /var/log']);
    const all = (await admin.get(`${URL}?search=systemctl`)).json() as { input: string }[];
    expect(all.map((c) => c.input)).toEqual(['SYSTEMCTL status sshd', 'systemctl restart nginx']);
  });

  it('finds rows written after the index was built, and forgets deleted ones', async () => {
    const db = t.deps.database.db;
    const s = await seedSession(db, { date_start: new Date().toISOString() });
    const [id] = await seedCommands(db, s, [{ input: 'kubectl get pods', timestamp_ms: Date.now() }]);
    expect(inputs(await admin.get(`${URL}?search=ctl%20get`))).toEqual(['kubectl get pods']);
    await db.updateTable('terminal_command').set({ input: 'helm list' }).where('id', '=', id!).execute();
    expect((await admin.get(`${URL}?search=ctl%20get`)).json()).toEqual([]);
    expect(inputs(await admin.get(`${URL}?search=helm`))).toEqual(['helm list']);
    await db.deleteFrom('terminal_command').where('id', '=', id!).execute();
    expect((await admin.get(`${URL}?search=helm`)).json()).toEqual([]);
  });

  it('stays inside the org and needs terminal.view_command', async () => {
    expect(inputs(await admin.get(`${URL}?search=firewalld`))).toEqual([]);
    expect(inputs(await admin.get(`${URL}?search=firewalld`, { 'x-jms-org': orgB }))).toEqual([
      'systemctl stop firewalld',
    ]);
    const id = await createUser(t, 'search_user');
    const invited = await admin.post('/api/v1/users/users/invite/', {
      users: [id],
      org_roles: [BUILTIN_ROLE_IDS.OrgUser],
    });
    expect(invited.statusCode, invited.body).toBeLessThan(300);
    const user = new SessionClient(t.app);
    expect((await user.login('search_user', USER_PASSWORD)).json().ok).toBe(true);
    expect((await user.get(`${URL}?search=systemctl`)).statusCode).toBe(403);
  });

  it('counts at most the cap and pages the newest matches first, inside the window or past it', async () => {
    const db = t.deps.database.db;
    const s = await seedSession(db, { date_start: new Date().toISOString() });
    // The newest rows of the org, alternating: a small cap and window stand in for 10,000 each
    // (the window, SQLite's in production, runs on both databases here).
    const top = Date.now() + 100_000;
    await seedCommands(
      db,
      s,
      [1, 2, 3, 4, 5, 6, 7, 8].map((k) => ({
        input: k % 2 ? `other ${k}` : `captest job ${k}`,
        timestamp_ms: top + k,
      })),
    );
    const saved = commandResource.longList;
    commandResource.longList = { countCap: 3, window: () => 4 };
    try {
      type Page = { count: number; next: string | null; results: { input: string }[] };
      const page = async (q: string) => (await admin.get(`${URL}?${q}`)).json() as Page;
      // Four match; the count stops at the cap. The window (4 newest rows) fills a page of 2.
      const first = await page('search=captest&limit=2');
      expect(first.count).toBe(3);
      expect(first.results.map((r) => r.input)).toEqual(['captest job 8', 'captest job 6']);
      expect(first.next).not.toBeNull();
      expect((await page('search=CAPTEST&limit=2')).results.map((r) => r.input)).toEqual([
        'captest job 8',
        'captest job 6',
      ]);
      // Wildcards stay literal in the window too (unescaped, `c_p` and `c%p` would match "captest").
      expect((await page('search=c_p&limit=1')).results).toEqual([]);
      expect((await page('search=c%25p&limit=1')).results).toEqual([]);
      // The next page is not in the window: the plain query answers it, still in time order.
      const second = await page('search=captest&limit=2&offset=2');
      expect(second.results.map((r) => r.input)).toEqual(['captest job 4', 'captest job 2']);
      expect(second.count).toBe(3);
      // Under the cap the count is exact; another order is not windowed.
      expect((await page('search=captest%20job%202&limit=5')).count).toBe(1);
      const oldest = await page('search=captest&limit=2&order=timestamp');
      expect(oldest.results.map((r) => r.input)).toEqual(['captest job 2', 'captest job 4']);
    } finally {
      commandResource.longList = saved;
    }
    const uncapped = (await admin.get(`${URL}?search=captest&limit=2`)).json() as { count: number };
    expect(uncapped.count).toBe(4);
  });
});
