/**
 * Datetimes leave as `YYYY/MM/DD HH:MM:SS +ZZZZ` in the request's time zone:
 * the `X-TZ` header when it names a valid IANA zone, else UTC.
 */
export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall clock of an instant in a zone, as numbers (exact, not cached per hour). */
export function wallClock(t: number, tz: string): { y: number; mo: number; d: number; h: number; mi: number } {
  const p = Object.fromEntries(
    formatter(tz)
      .formatToParts(new Date(t))
      .map((x) => [x.type, Number(x.value)]),
  );
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour!, mi: p.minute! };
}

const offsets = new Map<string, number>();

/** The zone's UTC offset in minutes at an instant, cached per zone and hour (DST changes on hours). */
function offsetMinutes(tz: string, t: number): number {
  if (tz === 'UTC') return 0;
  const key = `${tz}|${Math.floor(t / 3_600_000)}`;
  let off = offsets.get(key);
  if (off === undefined) {
    const parts = Object.fromEntries(
      formatter(tz)
        .formatToParts(new Date(t))
        .map((p) => [p.type, p.value]),
    );
    const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(parts.timeZoneName ?? '');
    off = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(key, off);
  }
  return off;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(value: string | Date | null | undefined, tz = 'UTC'): string | null {
  if (value === null || value === undefined || value === '') return null;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(t)) return null;
  const off = offsetMinutes(tz, t);
  const d = new Date(t + off * 60_000);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}
