/**
 * Time periods of access-control rules, in the original's format: a list of
 * `{id: <weekday, 0 = Sunday>, value: "HH:MM~HH:MM、HH:MM~HH:MM"}`, periods joined by the CJK
 * `、`. An end of `00:00` means 24:00 (the whole day is `00:00~00:00`); a day whose value is empty
 * never matches. As in the original, the comparison is by minute and inclusive at both ends
 * (`09:00~18:00` holds from 09:00:00 to 18:00:59), and a rule without any period never matches.
 * A period cannot cross midnight (`22:00~06:00` is refused on save): a night is `22:00~00:00` on
 * one day and `00:00~06:00` on the next, which is what the weekly grid produces.
 */
export interface DayPeriods {
  id: number;
  value: string;
}

export type TimePeriodError =
  | { code: 'time_period_not_list' }
  | { code: 'time_period_weekday'; value: string }
  | { code: 'time_period_duplicate_day'; value: string }
  | { code: 'time_period_format'; value: string }
  | { code: 'time_period_order'; value: string };

export const PERIOD_SEPARATOR = '、';
const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of `HH:MM`; an end of 00:00 is 24:00. */
function minutes(hhmm: string, isEnd: boolean): number | undefined {
  const m = HHMM.exec(hhmm.trim());
  if (!m) return undefined;
  const v = Number(m[1]) * 60 + Number(m[2]);
  return isEnd && v === 0 ? 24 * 60 : v;
}

/** `[start, end]` minute pairs of one day's value; undefined when the value is malformed. */
export function parseDayValue(value: string): { spans: [number, number][] } | { error: 'format' | 'order' } {
  const spans: [number, number][] = [];
  for (const part of value.split(PERIOD_SEPARATOR)) {
    if (!part.trim()) continue;
    const [a, b, extra] = part.split('~');
    if (a === undefined || b === undefined || extra !== undefined) return { error: 'format' };
    const start = minutes(a, false);
    const end = minutes(b, true);
    if (start === undefined || end === undefined) return { error: 'format' };
    if (start > end) return { error: 'order' };
    spans.push([start, end]);
  }
  return { spans };
}

/** Checks a `time_period` value; returns the normalised list or the first problem. */
export function checkTimePeriods(raw: unknown): { value: DayPeriods[] } | { error: TimePeriodError } {
  if (!Array.isArray(raw)) return { error: { code: 'time_period_not_list' } };
  const seen = new Set<number>();
  const out: DayPeriods[] = [];
  for (const item of raw) {
    const id = item && typeof item === 'object' ? Number((item as DayPeriods).id) : NaN;
    const value = item && typeof item === 'object' ? (item as DayPeriods).value : undefined;
    if (!Number.isInteger(id) || id < 0 || id > 6)
      return { error: { code: 'time_period_weekday', value: JSON.stringify(item) } };
    if (seen.has(id)) return { error: { code: 'time_period_duplicate_day', value: String(id) } };
    seen.add(id);
    const text = typeof value === 'string' ? value : '';
    if (value !== undefined && value !== null && typeof value !== 'string')
      return { error: { code: 'time_period_format', value: JSON.stringify(value) } };
    const parsed = parseDayValue(text);
    if ('error' in parsed)
      return { error: { code: parsed.error === 'order' ? 'time_period_order' : 'time_period_format', value: text } };
    out.push({ id, value: text.trim() });
  }
  return { value: out.sort((a, b) => a.id - b.id) };
}

/** Weekday (0 = Sunday) and minutes since midnight of an instant in a time zone. */
export function localClock(at: Date, timeZone: string): { weekday: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { weekday, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/** Whether the instant falls in the periods, read in the given time zone. */
export function inTimePeriods(periods: readonly DayPeriods[], at: Date, timeZone: string): boolean {
  if (!periods.length) return false;
  const { weekday, minute } = localClock(at, timeZone);
  const today = periods.find((p) => Number(p.id) === weekday);
  if (!today?.value) return false;
  const parsed = parseDayValue(today.value);
  if ('error' in parsed) return false;
  return parsed.spans.some(([s, e]) => s <= minute && minute <= e);
}

/** The whole week, every day all day: the default of new rules in the console. */
export const ALL_WEEK: DayPeriods[] = [0, 1, 2, 3, 4, 5, 6].map((id) => ({ id, value: '00:00~00:00' }));
