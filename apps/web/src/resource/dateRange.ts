import dayjs, { type Dayjs } from 'dayjs';

/** The list date-range picker's rules: 00:00:01 to 23:59:59, default the last 7 days. */
export const DATE_RANGE_SHORTCUTS = [1, 7, 30, 90, 183, 365] as const;

export type DateRange = [Dayjs, Dayjs];

/** `days` ago at 00:00:01 to today at 23:59:59. */
export function lastDays(days: number, now: Dayjs = dayjs()): DateRange {
  const from = now.subtract(days, 'day').hour(0).minute(0).second(1).millisecond(0);
  const to = now.hour(23).minute(59).second(59).millisecond(0);
  return [from, to];
}

export function defaultDateRange(now: Dayjs = dayjs()): DateRange {
  return lastDays(7, now);
}

/** `date_from` / `date_to` as ISO-8601 instants, which the server parses. */
export function dateRangeQuery([from, to]: DateRange): { date_from: string; date_to: string } {
  return { date_from: from.toISOString(), date_to: to.toISOString() };
}
