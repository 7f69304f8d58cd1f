import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { SessionClient, adminClient, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { USER_PASSWORD } from '../../../test-support/auth.ts';
import { commandRow, loginLogRow, seedSessions } from '../../../test-support/dashboardSeed.ts';
import { lastDays, weekStart } from './dayRanges.ts';

/** `GET /api/v1/index/`: every flag over seeded sessions, commands and logs, with exact numbers. */
let t: TestApp;
let admin: SessionClient;
let orgB: string;
const DAY = 86_400_000;
// Today since UTC midnight (the test asks in UTC): one second after midnight is always today and past.
const today = Math.floor(Date.now() / DAY) * DAY + 1000;
const yesterday = today - 1000 - 3_600_000;
const threeDaysAgo = today - 3 * DAY;
const H = (org: string) => ({ 'x-jms-org': org, 'x-tz': 'UTC', 'accept-language': 'en' });

async function index(query: string, org = DEFAULT_ORG_ID, client = admin) {
  const res = await client.get(`/api/v1/index/?${query}`, H(org));
  expect(res.statusCode).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  orgB = (await admin.post('/api/v1/orgs/orgs/', { name: 'Dash B' })).json().id;
  const db = t.deps.database.db;
  const [ann, ben, cy] = ['ann', 'ben', 'cy'].map(() => crypto.randomUUID());
  await seedSessions(db, [
    { user: 'Ann(ann)', userId: ann!, asset: 'web1', at: today, org: DEFAULT_ORG_ID },
    { user: 'Ann(ann)', userId: ann!, asset: 'db1', at: today + 1, org: DEFAULT_ORG_ID, finished: false },
    { user: 'Ben(ben)', userId: ben!, asset: 'web1', at: today + 2, org: DEFAULT_ORG_ID, success: false },
    { user: 'Ben(ben)', userId: ben!, asset: 'web1', at: yesterday, org: DEFAULT_ORG_ID },
    { user: 'Cy(cy)', userId: cy!, asset: 'db1', at: threeDaysAgo, org: DEFAULT_ORG_ID },
    { user: 'Zed(zed)', userId: crypto.randomUUID(), asset: 'b-host', at: today, org: orgB, finished: false },
  ]);
  await db
    .insertInto('terminal_command')
    .values([
      commandRow(today, 0, DEFAULT_ORG_ID),
      commandRow(today, 0, DEFAULT_ORG_ID),
      commandRow(today, 5, DEFAULT_ORG_ID),
      commandRow(today, 4, DEFAULT_ORG_ID),
      commandRow(yesterday, 0, DEFAULT_ORG_ID),
      commandRow(today, 0, orgB),
      commandRow(today, 5, orgB),
    ])
    .execute();
  await db.deleteFrom('audits_userloginlog').execute();
  await db
    .insertInto('audits_userloginlog')
    .values([
      loginLogRow('ann', today, true),
      loginLogRow('ann', today, true),
      loginLogRow('ben', today, false),
      loginLogRow('ben', yesterday, true),
    ])
    .execute();
  await db
    .insertInto('audits_ftplog')
    .values({
      id: crypto.randomUUID(),
      session_id: null,
      user: 'Zed(zed)',
      remote_addr: '127.0.0.1',
      asset: 'b-host',
      account: 'root',
      operate: 'upload',
      filename: '/tmp/a',
      is_success: true,
      has_file: false,
      date_start: new Date(today).toISOString(),
      org_id: orgB,
    })
    .execute();
});
afterAll(async () => t.close());

describe('GET /api/v1/index/', () => {
  it('counts the real-time and today figures of the current org', async () => {
    const d = await index('total_count=1');
    expect(d).toMatchObject({
      total_count_online_sessions: 1,
      total_count_online_users: 1,
      total_count_today_failed_sessions: 1,
      total_count_login_users: 2,
      total_count_today_active_assets: 2,
      total_count_history_sessions: 2,
      total_count_commands: 4,
      total_count_commands_danger: 2,
      total_count_ftp_logs: 0,
      total_count_job_logs: 0,
      total_count_job_logs_running: 0,
      total_count_job_logs_failed: 0,
    });
    // Only what was asked for.
    expect(Object.keys(await index('total_count_online_sessions=1'))).toEqual(['total_count_online_sessions']);
    expect(await index('')).toEqual({});
  });

  it('widens the range with days and keeps other orgs out', async () => {
    const d = await index('total_count_commands=1&total_count_commands_danger=1&total_count_history_sessions=1&days=7');
    expect(d).toEqual({ total_count_commands: 5, total_count_commands_danger: 2, total_count_history_sessions: 4 });
    const b = await index('total_count=1', orgB);
    expect(b).toMatchObject({
      total_count_online_sessions: 1,
      total_count_commands: 2,
      total_count_commands_danger: 1,
      total_count_ftp_logs: 1,
      total_count_today_failed_sessions: 0,
    });
    const root = await index('total_count_online_sessions=1&total_count_commands=1', ROOT_ORG_ID);
    expect(root).toEqual({ total_count_online_sessions: 2, total_count_commands: 6 });
  });

  it('reads padded values as the original console sends them: days with spaces, any non-blank flag', async () => {
    // The original console asks `?days=7 &total_count_...=1 ` (trailing spaces); v3.7.1 reads days
    // with Python's int() and any non-empty flag as on.
    const padded = await index(
      'total_count_commands=1%20&total_count_commands_danger=%201&total_count_history_sessions=yes&days=7%20',
    );
    expect(padded).toEqual({
      total_count_commands: 5,
      total_count_commands_danger: 2,
      total_count_history_sessions: 4,
    });
    expect(await index('total_count_commands=%20&days=%207%20')).toEqual({});
  });

  it('draws the per-day series and the rankings', async () => {
    const d = await index('dates_metrics=1&session_dates_metrics=1&days=7');
    expect(d.dates_metrics_date).toEqual(lastDays(7, 'UTC').map((x) => x.label));
    expect(d.dates_metrics_date[6]).toBe(new Date(today).toISOString().slice(5, 10));
    expect(d.dates_metrics_total_count_session).toEqual([0, 0, 0, 1, 0, 1, 3]);
    expect(d.dates_metrics_total_count_active_users).toEqual([0, 0, 0, 1, 0, 1, 2]);
    expect(d.dates_metrics_total_count_active_assets).toEqual([0, 0, 0, 1, 0, 1, 2]);
    // Login logs of org members only: the seeded names belong to no org, so the global org counts them.
    expect(d.dates_metrics_total_count_login).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const root = await index('dates_metrics=1&days=7', ROOT_ORG_ID);
    expect(root.dates_metrics_total_count_login).toEqual([0, 0, 0, 0, 0, 1, 2]);

    const top = await index('dates_login_times_top10_users=1&dates_login_times_top10_assets=1&days=7');
    expect(top.dates_login_times_top10_users.map((r: { user: string; total: number }) => [r.user, r.total])).toEqual([
      ['Ann(ann)', 2],
      ['Ben(ben)', 2],
      ['Cy(cy)', 1],
    ]);
    expect(top.dates_login_times_top10_assets.map((r: { asset: string; total: number }) => [r.asset, r.total])).toEqual(
      [
        ['web1', 3],
        ['db1', 2],
      ],
    );
    const todayOnly = await index('dates_login_times_top10_assets=1&days=1');
    expect(todayOnly.dates_login_times_top10_assets.map((r: { total: number }) => r.total)).toEqual([2, 1]);
    const last = await index('dates_login_record_top10_sessions=1&days=7');
    expect(last.dates_login_record_top10_sessions).toHaveLength(5);
    expect(last.dates_login_record_top10_sessions[0]).toMatchObject({
      user: 'Ben(ben)',
      asset: 'web1',
      is_finished: true,
    });
  });

  it('counts login and audit logs, users, assets and asset types', async () => {
    const root = await index('total_count_user_login_logs=1&total_count_user_login_success_logs=1', ROOT_ORG_ID);
    expect(root).toEqual({ total_count_user_login_logs: 3, total_count_user_login_success_logs: 2 });

    const zed = await admin.post(
      '/api/v1/users/users/',
      { name: 'Zed', username: 'zed', email: 'zed@example.com', password_strategy: 'custom', password: USER_PASSWORD },
      H(orgB),
    );
    expect(zed.statusCode).toBe(201);
    await admin.request({
      method: 'PUT',
      url: `/api/v1/users/users/${zed.json().id}/password/`,
      payload: { password: 'Zed-reset-2!' },
      headers: H(orgB),
    });
    const host = await admin.post(
      '/api/v1/assets/hosts/',
      { name: 'b-host', address: '10.0.0.9', platform: 'Linux' },
      H(orgB),
    );
    expect(host.statusCode).toBe(201);
    const b = await index(
      'total_count_users=1&total_count_users_this_week=1&total_count_assets=1&total_count_assets_this_week=1&total_count_change_password_logs=1&total_count_operate_logs=1&total_count_type_to_assets_amount=1',
      orgB,
    );
    const opLogs = (await admin.get('/api/v1/audits/operate-logs/?limit=1', H(orgB))).json().count;
    expect(b).toEqual({
      total_count_users: 1,
      total_count_users_this_week: 1,
      total_count_assets: 1,
      total_count_assets_this_week: 1,
      total_count_change_password_logs: 1,
      total_count_operate_logs: opLogs,
      total_count_type_to_assets_amount: [{ type: 'linux', label: 'Linux', total: 1 }],
    });
    expect(opLogs).toBeGreaterThan(0);
  });

  it('needs rbac.view_console or rbac.view_audit, and refuses a bad days with a 400', async () => {
    const res = await admin.get('/api/v1/index/?all=1&days=abc', H(DEFAULT_ORG_ID));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ days: ['Enter a whole number of days from 1 to 366.'] });
    expect((await admin.get('/api/v1/index/?all=1&days=0', H(DEFAULT_ORG_ID))).statusCode).toBe(400);
    expect(Object.keys(await index('all=1&days=30')).length).toBeGreaterThan(25);

    const plain = await admin.post(
      '/api/v1/users/users/',
      { name: 'Pia', username: 'pia', email: 'pia@example.com', password_strategy: 'custom', password: USER_PASSWORD },
      H(DEFAULT_ORG_ID),
    );
    expect(plain.statusCode).toBe(201);
    const pia = new SessionClient(t.app);
    expect((await pia.login('pia', USER_PASSWORD)).statusCode).toBe(200);
    expect((await pia.get('/api/v1/index/?total_count=1', H(DEFAULT_ORG_ID))).statusCode).toBe(403);
  });
});

describe('dashboard days', () => {
  it('are local calendar days of the caller’s time zone, across a DST change', () => {
    const sh = lastDays(3, 'Asia/Shanghai', Date.parse('2026-03-10T17:00:00Z'));
    expect(sh.map((d) => d.label)).toEqual(['03-09', '03-10', '03-11']);
    expect(sh[0]!.start).toBe('2026-03-08T16:00:00.000Z');
    expect(sh[2]!.end).toBe('2026-03-11T16:00:00.000Z');
    const berlin = lastDays(2, 'Europe/Berlin', Date.parse('2026-03-30T10:00:00Z'));
    expect(berlin).toEqual([
      { label: '03-29', start: '2026-03-28T23:00:00.000Z', end: '2026-03-29T22:00:00.000Z' },
      { label: '03-30', start: '2026-03-29T22:00:00.000Z', end: '2026-03-30T22:00:00.000Z' },
    ]);
    expect(weekStart('UTC', Date.parse('2026-11-24T10:00:00Z'))).toBe('2026-11-23T00:00:00.000Z');
    expect(weekStart('Asia/Tokyo', Date.parse('2026-11-22T20:00:00Z'))).toBe('2026-11-22T15:00:00.000Z');
  });
});
