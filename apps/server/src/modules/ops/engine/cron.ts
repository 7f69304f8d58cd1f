import { wallClock } from '../../../http/datetime.ts';

/**
 * Crontabs of periodic jobs: exactly five fields (minute, hour, day of month, month, day of week;
 * `*`, numbers, `a-b`, lists and `/step`; day of week 0-7 with 0 and 7 Sunday), read in a time
 * zone. When both day fields are restricted a day matches either (cron's rule). A sixth field
 * (seconds, as some schedulers take) is refused: the contract's crontabs have five.
 */
export interface Crontab {
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  domAny: boolean;
  dowAny: boolean;
}

export type CronError = { error: 'fields'; count: number } | { error: 'field'; field: string; value: string };

const FIELDS: [string, number, number][] = [
  ['minute', 0, 59],
  ['hour', 0, 23],
  ['day of month', 1, 31],
  ['month', 1, 12],
  ['day of week', 0, 7],
];

function parseField(raw: string, min: number, max: number): Set<number> | undefined {
  const out = new Set<number>();
  for (const part of raw.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return undefined;
    const step = m[4] ? Number(m[4]) : 1;
    let lo = min;
    let hi = max;
    if (m[1] !== '*') {
      lo = Number(m[2]);
      hi = m[3] !== undefined ? Number(m[3]) : m[4] ? max : lo;
    }
    if (step < 1 || lo < min || hi > max || lo > hi) return undefined;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

export function parseCrontab(text: string): Crontab | CronError {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5) return { error: 'fields', count: parts.length };
  const sets: Set<number>[] = [];
  for (let i = 0; i < 5; i++) {
    const [field, min, max] = FIELDS[i]!;
    const s = parseField(parts[i]!, min, max);
    if (!s) return { error: 'field', field, value: parts[i]! };
    sets.push(s);
  }
  const dow = sets[4]!;
  if (dow.has(7)) dow.add(0);
  return {
    minute: sets[0]!,
    hour: sets[1]!,
    dom: sets[2]!,
    month: sets[3]!,
    dow,
    domAny: parts[2] === '*',
    dowAny: parts[4] === '*',
  };
}

export const isCronError = (c: Crontab | CronError): c is CronError => 'error' in c;

function dayMatches(c: Crontab, w: { y: number; mo: number; d: number }): boolean {
  if (!c.month.has(w.mo)) return false;
  const weekday = new Date(Date.UTC(w.y, w.mo - 1, w.d)).getUTCDay();
  const domOk = c.dom.has(w.d);
  const dowOk = c.dow.has(weekday);
  if (c.domAny || c.dowAny) return (c.domAny || domOk) && (c.dowAny || dowOk);
  return domOk || dowOk;
}

/** Whether the crontab fires in the minute starting at `t` (ms), read in `zone`. */
export function cronMatches(c: Crontab, t: number, zone: string): boolean {
  const w = wallClock(t, zone);
  return c.minute.has(w.mi) && c.hour.has(w.h) && dayMatches(c, w);
}

/**
 * The next `count` minutes after `from` (ms) the crontab fires in, looked for over at most 4 years;
 * a day or an hour that cannot match is skipped whole.
 */
export function nextRuns(c: Crontab, from: number, zone: string, count = 5): Date[] {
  const out: Date[] = [];
  let t = Math.floor(from / 60_000) * 60_000 + 60_000;
  const end = t + 4 * 366 * 86_400_000;
  while (out.length < count && t < end) {
    const w = wallClock(t, zone);
    if (!dayMatches(c, w)) t += (24 * 60 - w.h * 60 - w.mi) * 60_000;
    else if (!c.hour.has(w.h)) t += (60 - w.mi) * 60_000;
    else {
      if (c.minute.has(w.mi)) out.push(new Date(t));
      t += 60_000;
    }
  }
  return out;
}
