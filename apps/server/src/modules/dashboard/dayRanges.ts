import { formatDateTime } from '../../http/datetime.ts';

/** A local calendar day as a UTC interval, with its `MM-DD` label. */
export interface DayRange {
  label: string;
  start: string;
  end: string;
}

const DAY_MS = 86_400_000;

/** The UTC instant of local midnight starting the local calendar day `y-m-d` (month 1-12) in `tz`. */
function localMidnight(y: number, m: number, d: number, tz: string): number {
  const utcMidnight = Date.UTC(y, m - 1, d);
  // The offset at the guessed instant, then again at the corrected one (a DST change near midnight).
  let t = utcMidnight - offsetMs(utcMidnight, tz);
  t = utcMidnight - offsetMs(t, tz);
  return t;
}

function offsetMs(t: number, tz: string): number {
  const m = / ([+-])(\d{2})(\d{2})$/.exec(formatDateTime(new Date(t), tz) ?? '');
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
}

function localDate(t: number, tz: string): [number, number, number] {
  const s = formatDateTime(new Date(t), tz) ?? '';
  const [y, m, d] = s.slice(0, 10).split('/').map(Number);
  return [y!, m!, d!];
}

/**
 * The last `days` local days up to today in the caller's time zone (`X-TZ`), oldest first, as the
 * dashboard's date axis: `days=1` is today since local midnight.
 */
export function lastDays(days: number, tz: string, now = Date.now()): DayRange[] {
  const [y, m, d] = localDate(now, tz);
  const out: DayRange[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(Date.UTC(y, m - 1, d) - i * DAY_MS);
    const [yy, mm, dd] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
    const start = localMidnight(yy, mm, dd, tz);
    const next = new Date(Date.UTC(yy, mm - 1, dd) + DAY_MS);
    const end = localMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), tz);
    out.push({
      label: `${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
    });
  }
  return out;
}

/** Local midnight starting this week's Monday, as an ISO instant. */
export function weekStart(tz: string, now = Date.now()): string {
  const [y, m, d] = localDate(now, tz);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday 0
  const monday = new Date(Date.UTC(y, m - 1, d) - weekday * DAY_MS);
  return new Date(
    localMidnight(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), tz),
  ).toISOString();
}
