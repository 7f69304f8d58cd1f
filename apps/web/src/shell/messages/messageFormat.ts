import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import { MESSAGE_BADGE_MAX } from '../navbarGates.ts';

dayjs.extend(relativeTime);

/** Site messages: 15 per page, the badge stops at 99 (99+). */
export const MESSAGE_PAGE_SIZE = 15;
export const BADGE_MAX = MESSAGE_BADGE_MAX;
/** Dates older than this show in full, newer ones as "3 hours ago". */
export const RELATIVE_DAYS = 7;

export function badgeText(count: number): string {
  if (count <= 0) return '';
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}

/** `date` as the server sends it (`YYYY/MM/DD HH:mm:ss +ZZZZ` or ISO). */
export function parseServerDate(date: string): dayjs.Dayjs {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(date.trim());
  if (m) return dayjs(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7]}${m[8]}:${m[9]}`);
  return dayjs(date);
}

export function formatMessageDate(date: string, now: Date = new Date()): string {
  const d = parseServerDate(date);
  if (!d.isValid()) return date;
  if (dayjs(now).diff(d, 'day', true) > RELATIVE_DAYS) return d.format('YYYY-MM-DD HH:mm:ss');
  return d.from(dayjs(now));
}

/** The unread count a websocket frame carries, or undefined for anything else. */
export function unreadOfFrame(raw: string): number | undefined {
  const data = JSON.parse(raw) as { unread_count?: unknown };
  return typeof data.unread_count === 'number' ? data.unread_count : undefined;
}
