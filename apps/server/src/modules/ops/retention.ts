import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/context.ts';
import { ftpFilePath } from '../audits/ftpFiles.ts';
import { scheduleDaily } from './dailyJobs.ts';
import { openTaskLog } from './taskLog.ts';
import { OM, om } from './opsMessages.ts';
import { defineTask, runTask } from './tasks/registry.ts';

/**
 * The daily clean-up of audit records (the original's `clean_audits_log_period`, 02:00): sessions
 * (finished ones) with their recordings (on disk or in their object store) and join records, commands, file transfers, login, operate and
 * activity logs, and finished cloud sync executions with their per-instance records
 * (`CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS`, docs/cloud.md) older than their keep setting (`*_KEEP_DAYS`, `TERMINAL_SESSION_KEEP_DURATION`,
 * days; 0 or less keeps them) are deleted `RETENTION_BATCH` rows at a time, so a large backlog
 * never holds one long transaction. Modules above add their own steps (`addRetentionStep`: the
 * account backup files, modules/automations/backupCleanup.ts). Task logs live in the cache for a day (modules/ops/taskLog.ts)
 * and expire by themselves. The run writes its own task log (readable with `ops.view_taskmonitor`).
 */
export const RETENTION_BATCH = 1000;
const DAY_MS = 86400_000;

/** A session's recording to remove: a path under DATA_DIR, or the key in the storage it names. */
export interface RecordingRef {
  replay_path: string;
  replay_storage_id: string | null;
}
type RecordingRemover = (deps: Deps, r: RecordingRef) => Promise<void>;

/** Without an object store: the file under DATA_DIR (a row never names a path that leaves it). */
let removeRecording: RecordingRemover = async (deps, r) => {
  const dataDir = path.resolve(deps.config.dataDir);
  const file = r.replay_path ? path.resolve(dataDir, r.replay_path) : '';
  if (file.startsWith(dataDir + path.sep)) await fs.rm(file, { force: true });
};

/** The terminal module, which knows the replay storages, removes recordings (it sits above ops). */
export function setRecordingRemover(fn: RecordingRemover): void {
  removeRecording = fn;
}

type Deps = Pick<AppDeps, 'database' | 'settings' | 'cache' | 'config' | 'secretBox'>;

/**
 * What modules above ops keep beside the audit records, cleaned by the same run: `run` removes
 * what is older than `before` (the cut-off of `setting`) and answers how many it removed, the
 * run's `deleted[key]`. One step per key (every app of a process shares them).
 */
export interface RetentionStep {
  key: string;
  setting: 'TASK_LOG_KEEP_DAYS';
  run(deps: Deps, before: Date): Promise<number>;
}
const steps = new Map<string, RetentionStep>();

export function addRetentionStep(step: RetentionStep): void {
  steps.set(step.key, step);
}

export interface RetentionResult {
  task_id: string;
  deleted: Record<string, number>;
}

/** Deletes the rows `pick` names, batch after batch, until none is left; the count deleted. */
async function inBatches(pick: () => Promise<string[]>, remove: (ids: string[]) => Promise<void>): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await pick();
    if (!ids.length) return total;
    await remove(ids);
    total += ids.length;
  }
}

type LogTable = 'audits_userloginlog' | 'audits_operatelog' | 'audits_activitylog';

async function cleanLog(deps: Deps, table: LogTable, before: string): Promise<number> {
  const db = deps.database.db;
  return inBatches(
    async () =>
      (await db.selectFrom(table).select('id').where('datetime', '<', before).limit(RETENTION_BATCH).execute()).map(
        (r) => r.id,
      ),
    async (ids) => void (await db.deleteFrom(table).where('id', 'in', ids).execute()),
  );
}

async function cleanSessions(deps: Deps, before: string): Promise<number> {
  const db = deps.database.db;
  return inBatches(
    async () => {
      const rows = await db
        .selectFrom('terminal_session')
        .select(['id', 'replay_path', 'replay_storage_id'])
        .where('date_start', '<', before)
        .where('is_finished', '=', true)
        .limit(RETENTION_BATCH)
        .execute();
      for (const r of rows) await removeRecording(deps, r);
      return rows.map((r) => r.id);
    },
    async (ids) => {
      await db.deleteFrom('terminal_sessionjoinrecord').where('session_id', 'in', ids).execute();
      await db.deleteFrom('terminal_sessionsharing').where('session_id', 'in', ids).execute();
      await db.deleteFrom('terminal_session').where('id', 'in', ids).execute();
    },
  );
}

/** Finished cloud sync runs (job engine executions of `job_type` `cloud_sync`) and their `cloud_syncrecord`s. */
async function cleanCloudSync(deps: Deps, before: string): Promise<number> {
  const db = deps.database.db;
  return inBatches(
    async () =>
      (
        await db
          .selectFrom('ops_jobexecution')
          .select('id')
          .where('job_type', '=', 'cloud_sync')
          .where('is_finished', '=', true)
          .where('date_created', '<', before)
          .limit(RETENTION_BATCH)
          .execute()
      ).map((r) => r.id),
    async (ids) => {
      await db.deleteFrom('cloud_syncrecord').where('execution_id', 'in', ids).execute();
      await db.deleteFrom('ops_jobexecution').where('id', 'in', ids).execute();
    },
  );
}

export async function runRetention(deps: Deps, now = new Date()): Promise<RetentionResult> {
  const { settings, database, cache } = deps;
  const db = database.db;
  const taskId = randomUUID();
  const log = await openTaskLog(cache, taskId, '');
  const deleted: Record<string, number> = {};
  const cutoff = async (name: Parameters<typeof settings.get>[0]) => {
    const days = Number(await settings.get(name));
    return days > 0 ? new Date(now.getTime() - days * DAY_MS) : undefined;
  };
  await log.write('>>> Clean audit records older than their keep settings');
  try {
    const sessions = await cutoff('TERMINAL_SESSION_KEEP_DURATION');
    if (sessions) {
      deleted.sessions = await cleanSessions(deps, sessions.toISOString());
      const ms = sessions.getTime();
      deleted.commands = await inBatches(
        async () =>
          (
            await db
              .selectFrom('terminal_command')
              .select('id')
              .where('timestamp_ms', '<', ms)
              .limit(RETENTION_BATCH)
              .execute()
          ).map((r) => r.id),
        async (ids) => void (await db.deleteFrom('terminal_command').where('id', 'in', ids).execute()),
      );
    }
    const ftp = await cutoff('FTP_LOG_KEEP_DAYS');
    if (ftp)
      deleted.ftp_logs = await inBatches(
        async () =>
          (
            await db
              .selectFrom('audits_ftplog')
              .select('id')
              .where('date_start', '<', ftp.toISOString())
              .limit(RETENTION_BATCH)
              .execute()
          ).map((r) => r.id),
        async (ids) => {
          // The kept copies go with their rows (a row without one has no file to remove).
          for (const id of ids) await fs.rm(ftpFilePath(deps.config.dataDir, id), { force: true });
          await db.deleteFrom('audits_ftplog').where('id', 'in', ids).execute();
        },
      );
    const cloud = await cutoff('CLOUD_SYNC_TASK_EXECUTION_KEEP_DAYS');
    if (cloud) deleted.cloud_sync_executions = await cleanCloudSync(deps, cloud.toISOString());
    for (const [key, name, table] of [
      ['login_logs', 'LOGIN_LOG_KEEP_DAYS', 'audits_userloginlog'],
      ['operate_logs', 'OPERATE_LOG_KEEP_DAYS', 'audits_operatelog'],
      ['activity_logs', 'ACTIVITY_LOG_KEEP_DAYS', 'audits_activitylog'],
    ] as const) {
      const before = await cutoff(name);
      if (before) deleted[key] = await cleanLog(deps, table, before.toISOString());
    }
    for (const step of steps.values()) {
      const before = await cutoff(step.setting);
      if (before) deleted[step.key] = await step.run(deps, before);
    }
    for (const [k, n] of Object.entries(deleted)) await log.write(`${k}: ${n} deleted`);
    await log.write('>>> Done');
  } catch (e) {
    await log.write(`>>> Failed: ${(e as Error).message}`);
    throw e;
  } finally {
    await log.end();
  }
  return { task_id: taskId, deleted };
}

/** The daily clean-up, one of Gatehouse's own tasks (tasks/registry.ts), at 02:00 in TIME_ZONE. */
export function registerRetention(app: FastifyInstance): void {
  const name = 'clean_audits_log_period';
  defineTask(app, {
    name,
    comment: OM.task_clean_audits,
    queue: 'periodic',
    cycle: async (lang) => om(lang, 'cycle_daily', { hour: '02' }),
    async run(log) {
      const r = await runRetention(app.deps);
      app.log.info({ task: r.task_id, deleted: r.deleted }, 'audit records cleaned');
      for (const [k, n] of Object.entries(r.deleted)) await log.write(`${k}: ${n} deleted`);
      return r.deleted;
    },
  });
  scheduleDaily(app, name, 2, async () => void (await runTask(app, name, 'schedule')));
}
