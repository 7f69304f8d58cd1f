import { describe, expect, it } from 'vitest';
import { nextRuns, parseCrontab, type Crontab } from './crontab.ts';

function cron(text: string): Crontab {
  const p = parseCrontab(text);
  if (!p.ok) throw new Error(`refused: ${JSON.stringify(p.error)}`);
  return p.cron;
}

const fmt = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ` +
  `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

// 2026-11-27 is a Friday; local times, as the preview shows them.
const FROM = new Date(2026, 10, 27, 10, 30);

describe('crontab', () => {
  it('refuses anything but five fields, saying how many it got', () => {
    expect(parseCrontab('0 0 * * * *')).toEqual({ ok: false, error: { kind: 'fields', count: 6 } });
    expect(parseCrontab('0 0 * *')).toEqual({ ok: false, error: { kind: 'fields', count: 4 } });
    expect(parseCrontab('   ')).toEqual({ ok: false, error: { kind: 'fields', count: 0 } });
  });

  it('names the field with a bad part', () => {
    expect(parseCrontab('60 * * * *')).toEqual({ ok: false, error: { kind: 'value', field: 'minute', part: '60' } });
    expect(parseCrontab('0 24 * * *')).toMatchObject({ ok: false, error: { field: 'hour' } });
    expect(parseCrontab('0 0 0 * *')).toMatchObject({ ok: false, error: { field: 'day' } });
    expect(parseCrontab('0 0 * 13 *')).toMatchObject({ ok: false, error: { field: 'month' } });
    expect(parseCrontab('0 0 * * 8')).toMatchObject({ ok: false, error: { field: 'weekday' } });
    for (const bad of ['*/0', '5-1', 'a', '1-2-3', '*/2/3', '', '1,,2'])
      expect(parseCrontab(`${bad} * * * *`).ok, bad).toBe(false);
  });

  it('reads ranges, steps, lists and names', () => {
    const c = cron('*/15 9-17/4 1,15 jan-mar mon-fri');
    expect([...c.minutes]).toEqual([0, 15, 30, 45]);
    expect([...c.hours]).toEqual([9, 13, 17]);
    expect([...c.days]).toEqual([1, 15]);
    expect([...c.months]).toEqual([1, 2, 3]);
    expect([...c.weekdays]).toEqual([1, 2, 3, 4, 5]);
    expect([...cron('5/20 * * * 7').minutes]).toEqual([5, 25, 45]);
    expect([...cron('0 0 * * 7').weekdays]).toEqual([0]);
    expect([...cron('0 0 * * SUN').weekdays]).toEqual([0]);
  });

  it('previews the next five runs after now', () => {
    expect(nextRuns(cron('0 0 * * *'), FROM).map(fmt)).toEqual([
      '2026-11-28 00:00',
      '2026-11-29 00:00',
      '2026-11-30 00:00',
      '2026-12-01 00:00',
      '2026-12-02 00:00',
    ]);
    expect(nextRuns(cron('*/20 10 * * *'), FROM).map(fmt)).toEqual([
      '2026-11-27 10:40',
      '2026-11-28 10:00',
      '2026-11-28 10:20',
      '2026-11-28 10:40',
      '2026-11-29 10:00',
    ]);
  });

  it('never counts the present minute as a run', () => {
    expect(fmt(nextRuns(cron('30 10 * * *'), FROM, 1)[0]!)).toBe('2026-11-28 10:30');
  });

  it('takes either day field when both are restricted, else the restricted one', () => {
    // Mondays, or the 1st of the month.
    expect(nextRuns(cron('0 8 1 * mon'), FROM, 4).map(fmt)).toEqual([
      '2026-11-30 08:00',
      '2026-12-01 08:00',
      '2026-12-07 08:00',
      '2026-12-14 08:00',
    ]);
    expect(nextRuns(cron('0 8 * * mon'), FROM, 2).map(fmt)).toEqual(['2026-11-30 08:00', '2026-12-07 08:00']);
    expect(nextRuns(cron('0 8 31 * *'), FROM, 2).map(fmt)).toEqual(['2026-12-31 08:00', '2027-01-31 08:00']);
  });

  it('finds leap days and gives nothing for a day that never comes', () => {
    expect(nextRuns(cron('0 0 29 2 *'), FROM, 2).map(fmt)).toEqual(['2028-02-29 00:00', '2032-02-29 00:00']);
    expect(nextRuns(cron('0 0 31 2 *'), FROM)).toEqual([]);
  });
});
