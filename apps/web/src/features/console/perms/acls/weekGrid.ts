/**
 * The weekly grid of access-control time periods: 7 days × 24 hours of on/off cells, and the
 * server's format (`[{id: <0 = Sunday>, value: "HH:MM~HH:MM、…"}]`, an end of 00:00 meaning 24:00).
 * An hour is on when one of the day's periods covers it whole; consecutive hours become one period.
 */
export interface DayPeriods {
  id: number;
  value: string;
}

export type Grid = boolean[][];

const SEP = '、';

export function emptyGrid(): Grid {
  return Array.from({ length: 7 }, () => Array<boolean>(24).fill(false));
}

export function fullGrid(): Grid {
  return Array.from({ length: 7 }, () => Array<boolean>(24).fill(true));
}

function minutes(hhmm: string, isEnd: boolean): number | undefined {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return undefined;
  const v = Number(m[1]) * 60 + Number(m[2]);
  return isEnd && v === 0 ? 1440 : v;
}

export function gridFromPeriods(periods: readonly DayPeriods[] | undefined): Grid {
  const grid = emptyGrid();
  for (const p of periods ?? []) {
    if (p.id < 0 || p.id > 6) continue;
    for (const part of (p.value ?? '').split(SEP)) {
      const [a, b] = part.split('~');
      const start = a === undefined ? undefined : minutes(a, false);
      const end = b === undefined ? undefined : minutes(b, true);
      if (start === undefined || end === undefined) continue;
      for (let h = 0; h < 24; h++) if (start <= h * 60 && (h + 1) * 60 <= end) grid[p.id]![h] = true;
    }
  }
  return grid;
}

const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;

/** One day's cells as the server's value, e.g. `09:00~12:00、13:00~18:00`; empty when none are on. */
export function dayValue(hours: readonly boolean[]): string {
  const spans: string[] = [];
  let start = -1;
  for (let h = 0; h <= 24; h++) {
    const on = h < 24 && hours[h];
    if (on && start < 0) start = h;
    if (!on && start >= 0) {
      spans.push(`${hh(start)}~${hh(h)}`);
      start = -1;
    }
  }
  return spans.join(SEP);
}

export function periodsFromGrid(grid: Grid): DayPeriods[] {
  return grid.map((hours, id) => ({ id, value: dayValue(hours) }));
}

/** The cells of the rectangle between two corners set to `on` (a drag over the grid). */
export function paint(grid: Grid, from: [number, number], to: [number, number], on: boolean): Grid {
  const [d0, d1] = [Math.min(from[0], to[0]), Math.max(from[0], to[0])];
  const [h0, h1] = [Math.min(from[1], to[1]), Math.max(from[1], to[1])];
  return grid.map((hours, d) => hours.map((v, h) => (d >= d0 && d <= d1 && h >= h0 && h <= h1 ? on : v)));
}
