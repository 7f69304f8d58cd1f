import { parseCrontab } from '../../../lib/crontab.ts';

/** A problem as an i18n key and its values. */
export interface Problem {
  key: string;
  values?: Record<string, string | number>;
}

/** Why a crontab entry is refused (none for an empty one: it is then not used). */
export function crontabProblem(text: unknown): Problem | null {
  if (typeof text !== 'string' || !text.trim()) return null;
  const p = parseCrontab(text);
  if (p.ok) return null;
  return p.error.kind === 'fields'
    ? { key: 'jobs.schedule.cronFields', values: { count: p.error.count } }
    : { key: `jobs.schedule.cronBad.${p.error.field}`, values: { part: p.error.part } };
}

/** An interval is whole hours, at least one; empty is not set. */
export function intervalProblem(v: unknown): Problem | null {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? null : { key: 'jobs.schedule.intervalMin' };
}

/** A periodic job needs a crontab or an interval (the crontab wins when both are given). */
export function periodicProblem(values: {
  is_periodic?: unknown;
  crontab?: unknown;
  interval?: unknown;
}): Problem | null {
  if (!values.is_periodic) return null;
  const cron = typeof values.crontab === 'string' && values.crontab.trim();
  const interval = values.interval !== null && values.interval !== undefined && values.interval !== '';
  return cron || interval ? null : { key: 'jobs.schedule.needOne' };
}
