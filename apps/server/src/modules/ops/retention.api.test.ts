import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { ftpFilePath } from '../audits/ftpFiles.ts';
import { seedCommands, seedSession } from '../../../test-support/auditSeed.ts';
import { systemTimeZone } from '../acls/matcher/rules.ts';
import { localDay, nextRunAt, startDaily, type DailyClock } from './dailyJobs.ts';
import { readTaskLog } from './taskLog.ts';
import { RETENTION_BATCH, runRetention } from './retention.ts';

/**
 * The daily clean-up: rows older than their keep setting go (in batches: more old commands than
 * one batch), recordings of deleted sessions leave the disk, everything newer and running
 * sessions stay, a keep of 0 keeps all; the run writes a task log.
 */
let t: TestApp;
let admin: SessionClient;
const DAY = 86400_000;
const NOW = new Date('2026-06-01T12:00:00.000Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
}, 30_000);
afterAll(async () => {
  await t?.close();
});

async function replayFile(name: string): Promise<string> {
  const rel = path.posix.join('replays', '2025-01-01', `${name}.cast.gz`);
  const abs = path.join(t.deps.config.dataDir, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, 'x');
  return rel;
}

async function logRow(table: 'audits_userloginlog' | 'audits_operatelog' | 'audits_activitylog', when: Date) {
  const id = randomUUID();
  const db = t.deps.database.db;
  const datetime = when.toISOString();
  if (table === 'audits_userloginlog')
    await db
      .insertInto(table)
      .values({
        id,
        username: 'x',
        type: 'W',
        ip: '',
        city: '',
        user_agent: '',
        mfa: 0,
        reason: '',
        backend: '',
        status: true,
        datetime,
      })
      .execute();
  else if (table === 'audits_operatelog')
    await db
      .insertInto(table)
      .values({
        id,
        user: 'x',
        action: 'create',
        resource_type: 'User',
        resource: 'x',
        resource_id: '',
        remote_addr: '',
        datetime,
        org_id: DEFAULT_ORG_ID,
        diff: '[]',
      })
      .execute();
  else
    await db
      .insertInto(table)
      .values({
        id,
        type: 'O',
        resource_id: '',
        detail: 'x',
        detail_id: null,
        username: 'x',
        datetime,
        org_id: DEFAULT_ORG_ID,
      })
      .execute();
  return id;
}

/** A transfer row, with its kept copy on disk. */
async function ftpRow(when: Date) {
  const id = randomUUID();
  const kept = ftpFilePath(t.deps.config.dataDir, id);
  fs.mkdirSync(path.dirname(kept), { recursive: true });
  fs.writeFileSync(kept, `copy of ${id}`);
  await t.deps.database.db
    .insertInto('audits_ftplog')
    .values({
      id,
      session_id: null,
      user: 'x',
      remote_addr: '',
      asset: 'a',
      account: 'b',
      operate: 'upload',
      filename: '/tmp/f',
      is_success: true,
      has_file: true,
      date_start: when.toISOString(),
      org_id: DEFAULT_ORG_ID,
    })
    .execute();
  return id;
}

const idsOf = async (
  table: 'terminal_session' | 'audits_ftplog' | 'audits_userloginlog' | 'audits_operatelog' | 'audits_activitylog',
) => (await t.deps.database.db.selectFrom(table).select('id').execute()).map((r) => r.id).sort();

describe('retention of audit records', () => {
  it('deletes exactly what is older than each keep setting, in batches, with a task log', async () => {
    const db = t.deps.database.db;
    // Sessions keep 200 days (default); login logs 30 days; operate logs 0 = forever.
    await t.deps.settings.set('LOGIN_LOG_KEEP_DAYS', 30, 'clean');
    await t.deps.settings.set('OPERATE_LOG_KEEP_DAYS', 0, 'clean');

    const oldFile = await replayFile('old');
    const newFile = await replayFile('new');
    const oldSession = await seedSession(db, {
      date_start: ago(201).toISOString(),
      replay_path: oldFile,
      has_replay: true,
    });
    const runningOld = await seedSession(db, { date_start: ago(300).toISOString(), is_finished: false });
    const newSession = await seedSession(db, {
      date_start: ago(199).toISOString(),
      replay_path: newFile,
      has_replay: true,
    });
    const old = Array.from({ length: RETENTION_BATCH + 7 }, (_, i) => ({
      input: `old ${i}`,
      timestamp_ms: ago(201).getTime() - i,
    }));
    await seedCommands(db, oldSession, old);
    const keptCommands = await seedCommands(db, newSession, [{ input: 'new', timestamp_ms: ago(199).getTime() }]);

    const ftpOld = await ftpRow(ago(201));
    const ftpNew = await ftpRow(ago(1));
    const loginOld = await logRow('audits_userloginlog', ago(31));
    const loginNew = await logRow('audits_userloginlog', ago(29));
    const operateOld = await logRow('audits_operatelog', ago(5000));
    const activityOld = await logRow('audits_activitylog', ago(201));
    const activityNew = await logRow('audits_activitylog', ago(199));
    const loginBefore = (await idsOf('audits_userloginlog')).filter((id) => id !== loginOld);
    const operateBefore = await idsOf('audits_operatelog');
    const activityBefore = (await idsOf('audits_activitylog')).filter((id) => id !== activityOld);

    const r = await runRetention(t.deps, NOW);
    expect(r.deleted).toMatchObject({
      sessions: 1,
      commands: RETENTION_BATCH + 7,
      ftp_logs: 1,
      login_logs: 1,
      activity_logs: 1,
    });
    expect(r.deleted.operate_logs).toBeUndefined();

    expect(await idsOf('terminal_session')).toEqual([runningOld, newSession].sort());
    expect((await db.selectFrom('terminal_command').select('id').execute()).map((c) => c.id)).toEqual(keptCommands);
    expect(fs.existsSync(path.join(t.deps.config.dataDir, oldFile))).toBe(false);
    expect(fs.existsSync(path.join(t.deps.config.dataDir, newFile))).toBe(true);
    expect(await idsOf('audits_ftplog')).toEqual([ftpNew]);
    expect(fs.existsSync(ftpFilePath(t.deps.config.dataDir, ftpOld))).toBe(false);
    expect(fs.existsSync(ftpFilePath(t.deps.config.dataDir, ftpNew))).toBe(true);
    expect(await idsOf('audits_userloginlog')).toEqual(loginBefore.sort());
    expect(loginBefore).toContain(loginNew);
    expect(await idsOf('audits_operatelog')).toEqual(operateBefore);
    expect(operateBefore).toContain(operateOld);
    expect(await idsOf('audits_activitylog')).toEqual(activityBefore.sort());
    expect(activityBefore).toContain(activityNew);
    // The deleted commands are gone from the search index too.
    expect((await admin.get('/api/v1/terminal/commands/?search=old')).json()).toEqual([]);

    const log = await readTaskLog(t.deps.cache, r.task_id, 0, 1 << 20);
    expect(log.ended).toBe(true);
    expect(log.text).toContain(`commands: ${RETENTION_BATCH + 7} deleted`);
    expect(log.text).toContain('>>> Done');

    // A second run finds nothing more.
    const again = await runRetention(t.deps, NOW);
    expect(again.deleted).toMatchObject({ sessions: 0, commands: 0, ftp_logs: 0, login_logs: 0, activity_logs: 0 });
  }, 60_000);

  it('plans the daily run at the next 02:00 of the zone, across daylight-saving changes', () => {
    const next = (iso: string, zone: string) => nextRunAt(new Date(iso), 2, zone).toISOString();
    // UTC+8: 02:00 there is 18:00 UTC the day before.
    expect(next('2026-06-01T12:00:00Z', 'Asia/Shanghai')).toBe('2026-06-01T18:00:00.000Z');
    expect(next('2026-06-01T17:59:59Z', 'Asia/Shanghai')).toBe('2026-06-01T18:00:00.000Z');
    expect(next('2026-06-01T18:00:00Z', 'Asia/Shanghai')).toBe('2026-06-02T18:00:00.000Z');
    expect(next('2026-06-01T01:00:00Z', 'UTC')).toBe('2026-06-01T02:00:00.000Z');
    // New York skips 02:00 on 2026-03-08 (runs at 03:00 EDT), then 02:00 EDT; 02:00 EST on 2026-11-01.
    expect(next('2026-03-08T05:00:00Z', 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
    expect(next('2026-03-08T07:00:00Z', 'America/New_York')).toBe('2026-03-09T06:00:00.000Z');
    expect(next('2026-11-01T04:00:00Z', 'America/New_York')).toBe('2026-11-01T07:00:00.000Z');
    expect(localDay(new Date('2026-06-01T18:00:00Z'), 'Asia/Shanghai')).toBe('2026-06-02');
  });

  it('runs the daily job at 02:00 in TIME_ZONE, not in server time (injected clock)', async () => {
    let now = Date.parse('2026-06-01T17:30:00Z');
    const timers: { fn: () => void; ms: number; at: number }[] = [];
    const clock: DailyClock = {
      now: () => now,
      setTimer: (fn, ms) => (timers.push({ fn, ms, at: now }), {}),
      clearTimer: () => undefined,
    };
    const name = `test_${randomUUID()}`;
    let runs = 0;
    const errors: Error[] = [];
    await t.deps.settings.set('TIME_ZONE', 'Asia/Shanghai');
    const stop = startDaily(
      { cache: t.deps.cache, settings: t.deps.settings, log: (e) => errors.push(e) },
      name,
      2,
      async () => void runs++,
      clock,
    );
    try {
      await vi.waitFor(() => expect(timers).toHaveLength(1));
      // 02:00 in Shanghai is 30 minutes away; 02:00 in UTC (this server's time in CI) would be 8.5 hours.
      expect(timers[0]!.ms).toBe(30 * 60_000);
      now = Date.parse('2026-06-01T18:00:00Z');
      timers[0]!.fn();
      await vi.waitFor(() => expect(timers).toHaveLength(2));
      expect(runs).toBe(1);
      // The day was claimed under Shanghai's date; the next wake-up is within the hour.
      expect(await t.deps.cache.incr(`gh:daily:${name}:2026-06-02`, 60)).toBe(2);
      expect(timers[1]!.ms).toBe(3_600_000);
      // The setting changes: the hourly wake-up plans 02:00 in the new zone (06:00 UTC in June).
      await t.deps.settings.set('TIME_ZONE', 'America/New_York');
      now = Date.parse('2026-06-02T05:15:00Z');
      timers[1]!.fn();
      await vi.waitFor(() => expect(timers).toHaveLength(3));
      expect(timers[2]!.ms).toBe(45 * 60_000);
      expect(runs).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      stop();
    }
    // A zone nobody knows falls back to the system's instead of stopping the job.
    await t.deps.settings.set('TIME_ZONE', 'Nowhere/Atlantis');
    const before = timers.length;
    const stopAgain = startDaily(
      { cache: t.deps.cache, settings: t.deps.settings, log: (e) => errors.push(e) },
      `${name}_b`,
      2,
      async () => void runs++,
      clock,
    );
    try {
      await vi.waitFor(() => expect(timers).toHaveLength(before + 1));
      const due = nextRunAt(new Date(now), 2, systemTimeZone()).getTime() - now;
      expect(timers[before]!.ms).toBe(Math.min(3_600_000, due));
      expect(errors).toEqual([]);
    } finally {
      stopAgain();
      await t.deps.settings.set('TIME_ZONE', '');
    }
  });
});
