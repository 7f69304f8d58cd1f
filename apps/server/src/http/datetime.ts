/**
 * Datetimes leave as `YYYY/MM/DD HH:MM:SS +ZZZZ` in the request's time zone (api-contract §1.7):
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
      timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
      second: '2-digit', hourCycle: 'h23', timeZoneName: 'longOffset',
    });
    formatters.set(tz, f);
  }
  return f;
}

export function formatDateTime(value: string | Date | null | undefined, tz = 'UTC'): string | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  const parts = Object.fromEntries(formatter(tz).formatToParts(d).map((p) => [p.type, p.value]));
  const offset = /GMT([+-]\d{2}):?(\d{2})?/.exec(parts.timeZoneName ?? '');
  const zone = offset ? `${offset[1]}${offset[2] ?? '00'}` : '+0000';
  return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${zone}`;
}
