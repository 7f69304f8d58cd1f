import { http } from '../../../../lib/http.ts';
import { download } from '../../../../resource/exportUrl.ts';
import { taskLogPath } from './automationApi.ts';

/** Account backup plans and their executions (contract §4.11, console reference §3.9 "Backup"). */
export const BACKUP_PLANS = '/api/v1/accounts/account-backup-plans/';
export const BACKUP_EXECUTIONS = '/api/v1/accounts/account-backup-plan-executions/';
export const REPLAY_STORAGES = '/api/v1/terminal/replay-storages/';

/** Runs a plan now and opens its task log. */
export async function runBackup(plan: string): Promise<string> {
  const { task } = await http.post<{ task: string }>(BACKUP_EXECUTIONS, { plan });
  window.open(taskLogPath(task), '_blank', 'noopener');
  return task;
}

/** The encrypted file of an execution: the server asks to verify again first (superusers only). */
export async function downloadBackup(execution: string): Promise<void> {
  const href = `${BACKUP_EXECUTIONS}${execution}/download/`;
  await http.raw('GET', href, { probe: true });
  download(href);
}
