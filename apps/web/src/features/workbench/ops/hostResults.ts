import type { TFunction } from 'i18next';
import { choiceValue, type ExecutionStatus } from './jobsApi.ts';

/** A time in seconds as the page's language writes it ("1.25 s", "1.25 秒"); `-` when unknown. */
export const secondsText = (v: unknown, t: TFunction): string =>
  typeof v === 'number' && Number.isFinite(v) ? t('jobs.result.seconds', { value: v.toFixed(2) }) : '-';

/** One host's result of an execution, as the summary table shows it. */
export interface HostRow {
  key: string;
  name: string;
  /** `ok`, `failed`, `timeout`, `skipped`, `excludes`... as the server says. */
  status: string;
  /** Why it failed or was skipped (the server's words, e.g. that Ansible is not installed). */
  reason: string;
  output: string;
  timeCost?: number;
}

type Obj = Record<string, unknown>;
const str = (v: unknown) => (v == null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function row(r: Obj, i: number): HostRow {
  const asset = r.asset && typeof r.asset === 'object' ? (r.asset as Obj) : undefined;
  const name = str(r.name ?? r.asset_name ?? asset?.name ?? r.asset ?? r.host ?? `#${i + 1}`);
  const tasks = Array.isArray(r.tasks) ? (r.tasks as Obj[]) : [];
  const output = r.output !== undefined ? str(r.output) : tasks.map((t) => str(t.output)).join('\n');
  const cost = Number(r.time_cost ?? r.timeCost);
  return {
    key: str(r.asset_id ?? asset?.id ?? r.id ?? name) || String(i),
    name,
    status: choiceValue(r.status) || 'unknown',
    reason: str(r.reason ?? r.error ?? r.msg ?? ''),
    output,
    ...(Number.isFinite(cost) ? { timeCost: cost } : {}),
  };
}

/**
 * The per-host rows of `job-execution/asset-detail/?execution_id=`: JumpServer's
 * `{summary, detail: [{name, status, tasks: [{name, output}]}]}`, or a plain list (or page) of
 * `{asset, status, reason, output, time_cost}`. Nothing yet (a running execution) is no rows.
 */
export function hostRows(data: unknown): HostRow[] {
  if (!data || typeof data !== 'object') return [];
  const d = data as Obj;
  const list = Array.isArray(data)
    ? data
    : Array.isArray(d.detail)
      ? d.detail
      : Array.isArray(d.results)
        ? d.results
        : [];
  return (list as unknown[]).filter((r): r is Obj => Boolean(r) && typeof r === 'object').map(row);
}

/** An error of the whole execution (`summary.error`), e.g. no runner for the module. */
export function executionError(data: unknown): string {
  const summary = data && typeof data === 'object' ? (data as Obj).summary : undefined;
  const error = summary && typeof summary === 'object' ? (summary as Obj).error : undefined;
  return error ? str(error) : '';
}

/** The state of an execution from its `status`, else from its finished and success flags. */
export function executionStatus(
  x: { status?: unknown; is_finished?: unknown; is_success?: unknown } & object,
): ExecutionStatus {
  const s = choiceValue(x.status);
  if (s === 'pending' || s === 'running' || s === 'success' || s === 'timeout' || s === 'failed') return s;
  if (!x.is_finished) return 'running';
  return x.is_success ? 'success' : 'failed';
}

export const STATUS_COLOR: Record<ExecutionStatus, string> = {
  pending: 'default',
  running: 'processing',
  success: 'success',
  timeout: 'warning',
  failed: 'error',
};

/** A host's status as a colour of antd's Tag. */
export const hostColor = (status: string): string =>
  status === 'ok' || status === 'success'
    ? 'success'
    : status === 'timeout'
      ? 'warning'
      : status === 'skipped' || status === 'excludes'
        ? 'default'
        : 'error';
