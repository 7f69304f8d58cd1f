import { http, HttpError } from '../../../lib/http.ts';

/** The job centre's API (contract §4.16), the user's own jobs, executions and templates. */
export const OPS = '/api/v1/ops';
export const JOBS_URL = `${OPS}/jobs/`;
export const EXECUTIONS_URL = `${OPS}/job-executions/`;
export const ADHOCS_URL = `${OPS}/adhocs/`;
export const PLAYBOOKS_URL = `${OPS}/playbooks/`;
/** The assets a job may target: the user's granted assets. */
export const MY_ASSETS_URL = '/api/v1/perms/users/self/assets/';

export const MODULES = ['shell', 'win_shell', 'raw', 'python', 'mysql', 'postgresql', 'sqlserver'] as const;
export const RUNAS_POLICIES = ['skip', 'privileged_first', 'privileged_only'] as const;
export type ExecutionStatus = 'pending' | 'running' | 'success' | 'timeout' | 'failed';

export interface JobBody {
  name?: string;
  type?: 'adhoc' | 'playbook';
  module?: string;
  args?: string;
  playbook?: string;
  assets: string[];
  nodes: string[];
  runas: string;
  runas_policy: string;
  timeout: number;
  chdir?: string;
  instant?: boolean;
  is_periodic?: boolean;
}

export interface Job extends Omit<JobBody, 'playbook' | 'module' | 'runas_policy'> {
  id: string;
  name: string;
  module?: string | { value: string; label: string };
  runas_policy?: string | { value: string; label: string };
  playbook?: { id: string; name: string } | null;
  use_parameter_define?: boolean;
  parameters_define?: unknown;
}

/** `job-execution/task-detail/<task_id>/`. */
export interface TaskDetail {
  status: ExecutionStatus | { value: ExecutionStatus; label: string };
  is_finished: boolean;
  is_success: boolean;
  time_cost: number;
  job_id: string;
}

export interface Adhoc {
  id: string;
  name: string;
  module: string | { value: string; label: string };
  args: string;
  comment?: string;
}

export interface UsernameHint {
  username: string;
  total: number;
}

/** A `{value, label}` choice or a plain value, as a value. */
export const choiceValue = (v: unknown): string =>
  v && typeof v === 'object' && 'value' in v ? String((v as { value: unknown }).value) : v == null ? '' : String(v);

export const jobsApi = {
  /** An instant job runs at once; the answer carries the execution's `task_id`. */
  runInstant: (body: JobBody) =>
    http.post<Job & { task_id: string }>(JOBS_URL, { ...body, instant: true, is_periodic: false }),
  job: (id: string) => http.get<Job>(`${JOBS_URL}${encodeURIComponent(id)}/`),
  /** Runs a saved job (with its parameters' values); the answer carries `task_id`. */
  runJob: (job: string, parameters: Record<string, string>) =>
    http.post<{ id: string; task_id: string }>(EXECUTIONS_URL, { job, parameters }),
  taskDetail: (taskId: string) =>
    http.get<TaskDetail>(`${OPS}/job-execution/task-detail/${encodeURIComponent(taskId)}/`),
  assetDetail: (executionId: string) =>
    http.get<unknown>(`${OPS}/job-execution/asset-detail/`, { params: { execution_id: executionId } }),
  usernameHints: (body: { nodes: string[]; assets: string[]; query: string }) =>
    http.post<UsernameHint[]>(`${OPS}/username-hints/`, body),
  variablesHelp: () => http.get<unknown>(`${OPS}/variables/help/`),
  adhocs: (search = '') =>
    http.get<{ results: Adhoc[] } | Adhoc[]>(ADHOCS_URL, { params: { limit: 100, ...(search ? { search } : {}) } }),
  saveAdhoc: (body: { name: string; module: string; args: string; comment?: string }) =>
    http.post<Adhoc>(ADHOCS_URL, body),
};

/** The task-log page of an execution (its id is its task's id). */
export const jobLogPath = (taskId: string) => `/ui/ops/ansible/task/${encodeURIComponent(taskId)}/log/`;

/** The server's words for a centre turned off, in each language it speaks (modules/jobs, jobs.json). */
const DISABLED = /command execution disabled|命令执行已禁用|コマンド実行は無効です/i;

/** The centre is off (`SECURITY_COMMAND_EXECUTION` false): the server answers 403 "Command execution disabled". */
export function isCentreDisabled(e: unknown): boolean {
  if (!(e instanceof HttpError) || e.status !== 403) return false;
  const detail = (e.data as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && DISABLED.test(detail);
}

/** A page or a list answer as a list. */
export const rowsOf = <T>(data: { results: T[] } | T[] | undefined): T[] =>
  Array.isArray(data) ? data : (data?.results ?? []);
