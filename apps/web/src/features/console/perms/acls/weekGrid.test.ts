import { describe, expect, it } from 'vitest';
import { dayValue, emptyGrid, fullGrid, gridFromPeriods, paint, periodsFromGrid } from './weekGrid.ts';

describe('the weekly time-period grid', () => {
  it('turns a whole day into 00:00~00:00 (the end 00:00 means 24:00) and back', () => {
    const periods = periodsFromGrid(fullGrid());
    expect(periods).toHaveLength(7);
    expect(periods[0]).toEqual({ id: 0, value: '00:00~00:00' });
    expect(gridFromPeriods(periods)).toEqual(fullGrid());
  });

  it('joins consecutive hours and separates periods with 、', () => {
    const hours = Array<boolean>(24).fill(false);
    for (const h of [9, 10, 11, 13, 14, 15, 16, 17]) hours[h] = true;
    expect(dayValue(hours)).toBe('09:00~12:00、13:00~18:00');
    hours[23] = true;
    expect(dayValue(hours)).toBe('09:00~12:00、13:00~18:00、23:00~00:00');
    expect(dayValue(Array<boolean>(24).fill(false))).toBe('');
  });

  it('reads the server format, keeping only whole hours', () => {
    const grid = gridFromPeriods([{ id: 1, value: '09:00~12:00、13:30~15:00' }]);
    expect(grid[1]!.map((v, h) => (v ? h : -1)).filter((h) => h >= 0)).toEqual([9, 10, 11, 14]);
    expect(grid[0]!.every((v) => !v)).toBe(true);
    expect(gridFromPeriods([{ id: 2, value: 'junk' }])).toEqual(emptyGrid());
  });

  it('paints the rectangle of a drag, in either direction', () => {
    const g = paint(emptyGrid(), [3, 20], [1, 18], true);
    expect(periodsFromGrid(g).map((p) => p.value)).toEqual([
      '',
      '18:00~21:00',
      '18:00~21:00',
      '18:00~21:00',
      '',
      '',
      '',
    ]);
    const cleared = paint(g, [2, 0], [2, 23], false);
    expect(cleared[2]!.some(Boolean)).toBe(false);
  });
});
