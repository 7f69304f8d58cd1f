import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { SessionClient, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { seedSession } from '../../../test-support/auditSeed.ts';

/**
 * `GET /api/v1/terminal/my-sessions/` (the workbench home's recent sessions): any signed-in user,
 * their own sessions only (by user id, whatever a row's label says), in the current org (all of
 * theirs in the global one, for those who may enter it); the request's filters narrow, never
 * widen; the full list still needs `terminal.view_session`.
 */
const URL = '/api/v1/terminal/my-sessions/';
const PASSWORD = 'My-sessions-pass1';
let t: TestApp;
let admin: SessionClient;
let dora: SessionClient;
let orgB: string;
const ids: Record<string, string> = {};
type Row = Record<string, unknown> & { id: string };

async function member(username: string): Promise<string> {
  const res = await admin.post(
    '/api/v1/users/users/',
    { name: username, username, email: `${username}@example.com`, password_strategy: 'custom', password: PASSWORD },
    { 'x-jms-org': DEFAULT_ORG_ID },
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'My sessions B' })).json().id;
  const doraId = await member('dora');
  const eveId = await member('eve');
  const adminId = (await admin.get('/api/v1/users/profile/')).json().id;
  const db = t.deps.database.db;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  ids.doraOld = await seedSession(db, { user: 'Dora(dora)', user_id: doraId, asset: 'old-01', date_start: at(60) });
  ids.doraNew = await seedSession(db, {
    user: 'Dora(dora)',
    user_id: doraId,
    asset: 'new-01',
    protocol: 'sftp',
    type: 'sftp',
    date_start: at(5),
  });
  // Hers, but in another org: not in Default's list.
  ids.doraB = await seedSession(db, {
    user: 'Dora(dora)',
    user_id: doraId,
    asset: 'b-01',
    org_id: orgB,
    date_start: at(1),
  });
  // Eve's, labelled as Dora's: the label names nobody, the user id does.
  ids.eve = await seedSession(db, { user: 'Dora(dora)', user_id: eveId, asset: 'eve-01', date_start: at(2) });
  ids.adminB = await seedSession(db, { user_id: adminId, asset: 'admin-b', org_id: orgB, date_start: at(3) });
  dora = new SessionClient(t.app);
  expect((await dora.login('dora', PASSWORD)).statusCode).toBe(200);
});
afterAll(async () => t.close());

describe('my sessions', () => {
  it("lists the caller's own sessions of the current org, newest first, in the sessions' shape", async () => {
    const res = await dora.get(`${URL}?limit=5`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.count).toBe(2);
    expect(page.results.map((r: Row) => r.id)).toEqual([ids.doraNew, ids.doraOld]);
    expect(page.results[0]).toMatchObject({ asset: 'new-01', protocol: 'sftp', type: { value: 'sftp' } });
    // The same fields as the sessions list (the console's table reads them).
    const full = (await admin.get(`/api/v1/terminal/sessions/${ids.doraNew}/`)).json();
    expect(Object.keys(page.results[0]).sort()).toEqual(Object.keys(full).sort());
    expect((await dora.get(`${URL}${ids.doraOld}/`)).json().asset).toBe('old-01');
  });

  it("never shows another user's session or one of another org, by id, filter, search or export", async () => {
    for (const id of [ids.eve, ids.adminB, ids.doraB])
      expect((await dora.get(`${URL}${id}/`)).statusCode, id).toBe(404);
    const eveId = (await admin.get('/api/v1/users/users/?username=eve', { 'x-jms-org': DEFAULT_ORG_ID })).json()[0].id;
    expect((await dora.get(`${URL}?user_id=${eveId}`)).json()).toEqual([]);
    expect((await dora.get(`${URL}?asset=eve-01`)).json()).toEqual([]);
    expect((await dora.get(`${URL}?search=eve`)).json()).toEqual([]);
    const csv = await dora.get(`${URL}?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('new-01');
    expect(csv.body).not.toContain('eve-01');
    expect(csv.body).not.toContain('b-01');
    // Not a member of B: naming it is refused, as on every API route.
    expect((await dora.get(URL, { 'x-jms-org': orgB })).statusCode).toBe(403);
    expect((await dora.get(`${URL}${ids.doraB}/`, { 'x-jms-org': orgB })).statusCode).toBe(403);
    // The workbench's "All organizations" (the User role's orgs.view_alljoinedorg): all of hers, still only hers.
    const all = (await dora.get(URL, { 'x-jms-org': ROOT_ORG_ID })).json();
    expect(all.map((r: Row) => r.id)).toEqual([ids.doraB, ids.doraNew, ids.doraOld]);
  });

  it('follows the org: B shows only its own rows, the global org all of the caller’s', async () => {
    const inB = (await admin.get(URL, { 'x-jms-org': orgB })).json();
    expect(inB.map((r: Row) => r.id)).toEqual([ids.adminB]);
    expect((await admin.get(URL, { 'x-jms-org': DEFAULT_ORG_ID })).json()).toEqual([]);
    const all = (await admin.get(URL, { 'x-jms-org': ROOT_ORG_ID })).json();
    expect(all.map((r: Row) => r.id)).toEqual([ids.adminB]);
  });

  it('needs a signed-in user; the full list still needs terminal.view_session', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    expect((await dora.get('/api/v1/terminal/sessions/')).statusCode).toBe(403);
    expect((await dora.get(`/api/v1/terminal/sessions/${ids.doraNew}/`)).statusCode).toBe(403);
  });
});
