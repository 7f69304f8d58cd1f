import { messagesOf } from './formErrors.ts';

/**
 * The import task of the console, as pure functions: the task goes
 * pending → started → stopped | done; each row is pending, ok or an error.
 */
export type TaskStatus = 'pending' | 'started' | 'stopped' | 'done';
export type RowStatus = 'pending' | 'ok' | { name: 'error'; error: string };
export type ImportButton = 'import' | 'stop' | 'continue' | 'finished';
export type RowFilter = 'all' | 'ok' | 'error' | 'pending';

export const STATUS = '@status';

export interface ImportRow {
  [STATUS]: RowStatus;
  [field: string]: unknown;
}

export interface ImportState {
  task: TaskStatus;
  rows: ImportRow[];
}

export function createImport(data: readonly Record<string, unknown>[]): ImportState {
  return { task: 'pending', rows: data.map((d) => ({ ...d, [STATUS]: 'pending' as RowStatus })) };
}

const isError = (s: RowStatus): s is { name: 'error'; error: string } => typeof s === 'object';
const rowKind = (s: RowStatus): Exclude<RowFilter, 'all'> => (isError(s) ? 'error' : s);

export function counts(state: ImportState): Record<RowFilter, number> {
  const c = { all: state.rows.length, ok: 0, error: 0, pending: 0 };
  for (const r of state.rows) c[rowKind(r[STATUS])]++;
  return c;
}

/** The one button: Import, then Stop, then Continue (stopped, or done with failures), or Finished. */
export function buttonOf(state: ImportState): ImportButton {
  switch (state.task) {
    case 'pending':
      return 'import';
    case 'started':
      return 'stop';
    case 'stopped':
      return 'continue';
    default:
      return counts(state).error > 0 ? 'continue' : 'finished';
  }
}

/** Pressing the button. Continue after done puts the failed rows back in the queue. */
export function press(state: ImportState): ImportState {
  switch (buttonOf(state)) {
    case 'import':
      return { ...state, task: 'started' };
    case 'stop':
      return { ...state, task: 'stopped' };
    case 'continue':
      if (state.task === 'stopped') return { ...state, task: 'started' };
      return { task: 'started', rows: state.rows.map((r) => (isError(r[STATUS]) ? { ...r, [STATUS]: 'pending' } : r)) };
    default:
      return state;
  }
}

/** The next row to send while started, else -1. */
export function nextRow(state: ImportState): number {
  if (state.task !== 'started') return -1;
  return state.rows.findIndex((r) => r[STATUS] === 'pending');
}

/** A row's outcome; once no row is pending, the task is done. */
export function recordResult(state: ImportState, index: number, result: 'ok' | { error: string }): ImportState {
  const status: RowStatus = result === 'ok' ? 'ok' : { name: 'error', error: result.error };
  const rows = state.rows.map((r, i) => (i === index ? { ...r, [STATUS]: status } : r));
  const done = !rows.some((r) => r[STATUS] === 'pending');
  return { task: done ? 'done' : state.task, rows };
}

/** Marks a started task done when nothing is left to send. */
export function settle(state: ImportState): ImportState {
  return state.task === 'started' && nextRow(state) < 0 ? { ...state, task: 'done' } : state;
}

export function progressPercent(state: ImportState): number {
  const c = counts(state);
  return c.all ? Math.round(((c.all - c.pending) / c.all) * 100) : 0;
}

export function filterRows(state: ImportState, filter: RowFilter): ImportRow[] {
  return filter === 'all' ? state.rows : state.rows.filter((r) => rowKind(r[STATUS]) === filter);
}

/** The row's data as sent (without its status). */
export function rowBody(row: ImportRow): Record<string, unknown> {
  const { [STATUS]: _status, ...body } = row;
  return body;
}

/** A 400 body flattened to "column label: message", other bodies to their messages. */
export function flattenRowError(body: unknown, titles: readonly (readonly [string, string])[]): string {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const labels = new Map(titles.map(([label, field]) => [field, label]));
    return Object.entries(body as Record<string, unknown>)
      .filter(([k]) => k !== 'code')
      .map(([k, v]) => {
        const msg = messagesOf(v).join('; ');
        return ['detail', 'non_field_errors', 'error', 'msg'].includes(k) ? msg : `${labels.get(k) ?? k}: ${msg}`;
      })
      .filter(Boolean)
      .join('; ');
  }
  return messagesOf(body).join('; ');
}
