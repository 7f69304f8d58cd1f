import fs from 'node:fs/promises';
import path from 'node:path';
import { addRetentionStep } from '../ops/retention.ts';
import { parseJson } from './automationExecutions.ts';
import { backupDir } from './backupRun.ts';

/**
 * Old account backup files (DATA_DIR/account-backups/<execution>.csv.enc) go with the daily
 * clean-up (modules/ops/retention.ts) once older than `TASK_LOG_KEEP_DAYS` (the task executions' keep
 * setting of the "clean" settings category): a file written before the cut-off is removed and
 * its execution's summary gets `backup_removed` (when), which its download then tells.
 */
export function registerBackupCleanup(): void {
  addRetentionStep({
    key: 'account_backups',
    setting: 'TASK_LOG_KEEP_DAYS',
    async run(deps, before) {
      const dir = backupDir(deps.config.dataDir);
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      const db = deps.database.db;
      let removed = 0;
      for (const name of names) {
        const m = /^([0-9a-f-]{36})\.csv\.enc$/i.exec(name);
        if (!m) continue;
        const file = path.join(dir, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (!stat || stat.mtime >= before) continue;
        await fs.rm(file, { force: true });
        removed += 1;
        const exec = await db
          .selectFrom('ops_jobexecution')
          .select(['id', 'summary'])
          .where('id', '=', m[1]!)
          .where('job_type', '=', 'account_backup')
          .executeTakeFirst();
        if (exec)
          await db
            .updateTable('ops_jobexecution')
            .set({
              summary: JSON.stringify({
                ...parseJson<Record<string, unknown>>(exec.summary, {}),
                backup_removed: new Date().toISOString(),
              }),
            })
            .where('id', '=', exec.id)
            .execute();
      }
      return removed;
    },
  });
}
