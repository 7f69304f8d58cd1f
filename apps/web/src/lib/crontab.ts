/**
 * Five-field crontab (`minute hour day-of-month month day-of-week`) as the job centre's schedules
 * take it: numbers, `*`, ranges `a-b`, steps `*\/n` and `a-b/n`, lists `a,b`, month and weekday
 * names (`jan`, `mon`), weekday 0 or 7 for Sunday. When both day fields are restricted a day matches
 * either (cron's rule). Only used to check an entry and preview its next runs in the browser.
 */

export interface CronField {
  name: 'minute' | 'hour' | 'day' | 'month' | 'weekday';
  min: number;
  max: number;
  names?: readonly string[];
}

export const CRON_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'weekday', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

export interface Crontab {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Whether the day-of-month and day-of-week fields were `*` (unrestricted). */
  anyDay: boolean;
  anyWeekday: boolean;
}

/** Why an entry was refused: the number of fields, or one field's bad part. */
export type CronError = { kind: 'fields'; count: number } | { kind: 'value'; field: CronField['name']; part: string };

export type CronParse = { ok: true; cron: Crontab } | { ok: false; error: CronError };

function value(s: string, f: CronField): number | undefined {
  const i = f.names?.indexOf(s.toLowerCase()) ?? -1;
  if (i >= 0) return f.min === 1 ? i + 1 : i;
  if (!/^\d+$/.test(s)) return undefined;
  const n = Number(s);
  return n >= f.min && n <= f.max ? n : undefined;
}

function field(text: string, f: CronField): Set<number> | undefined {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range = '', stepText, extra] = part.split('/');
    if (extra !== undefined) return undefined;
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) ? Number(stepText) : 0;
    if (step < 1) return undefined;
    let lo: number | undefined;
    let hi: number | undefined;
    if (range === '*') [lo, hi] = [f.min, f.max];
    else if (range.includes('-')) {
      const [a = '', b = '', more] = range.split('-');
      if (more !== undefined) return undefined;
      [lo, hi] = [value(a, f), value(b, f)];
    } else {
      lo = value(range, f);
      hi = stepText === undefined ? lo : f.max;
    }
    if (lo === undefined || hi === undefined || lo > hi) return undefined;
    for (let n = lo; n <= hi; n += step) out.add(f.name === 'weekday' && n === 7 ? 0 : n);
  }
  return out;
}

export function parseCrontab(text: string): CronParse {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5) return { ok: false, error: { kind: 'fields', count: parts.length } };
  const sets: Set<number>[] = [];
  for (const [i, f] of CRON_FIELDS.entries()) {
    const s = field(parts[i]!, f);
    if (!s) return { ok: false, error: { kind: 'value', field: f.name, part: parts[i]! } };
    sets.push(s);
  }
  const [minutes, hours, days, months, weekdays] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  return {
    ok: true,
    cron: { minutes, hours, days, months, weekdays, anyDay: parts[2] === '*', anyWeekday: parts[4] === '*' },
  };
}

function dayMatches(c: Crontab, d: Date): boolean {
  const dom = c.days.has(d.getDate());
  const dow = c.weekdays.has(d.getDay());
  if (c.anyDay && c.anyWeekday) return true;
  if (c.anyDay) return dow;
  if (c.anyWeekday) return dom;
  return dom || dow;
}

/** Years searched for runs: an entry that never matches (`0 0 31 2 *`) gives none instead of looping. */
const SEARCH_DAYS = 366 * 8;

/** The next `count` run times strictly after `from`, in the browser's time zone. */
export function nextRuns(cron: Crontab, from: Date, count = 5): Date[] {
  const out: Date[] = [];
  const minutes = [...cron.minutes].sort((a, b) => a - b);
  const hours = [...cron.hours].sort((a, b) => a - b);
  const day = new Date(from.getFullYear(), from.getMonth(), from.getDate());
  for (let i = 0; i < SEARCH_DAYS && out.length < count; i++) {
    if (cron.months.has(day.getMonth() + 1) && dayMatches(cron, day)) {
      for (const h of hours) {
        for (const m of minutes) {
          const t = new Date(day.getFullYear(), day.getMonth(), day.getDate(), h, m);
          // A time a daylight-saving change skips comes out an hour later: not a run of this entry.
          if (t.getHours() !== h || t <= from) continue;
          out.push(t);
          if (out.length === count) return out;
        }
      }
    }
    day.setDate(day.getDate() + 1);
  }
  return out;
}
