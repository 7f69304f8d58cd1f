import { http } from '../../lib/http.ts';
import { MESSAGE_PAGE_SIZE } from './messageFormat.ts';

/** Site messages of the signed-in user. */
export const SITE_MESSAGES_URL = '/api/v1/notifications/site-messages/';

export interface SiteMessage {
  id: string;
  has_read: boolean;
  read_at: string | null;
  date_created: string;
  content: { id: string; subject: string; message: string; date_created: string; sender?: unknown };
}

export interface MessagePage {
  count: number;
  results: SiteMessage[];
}

export const fetchUnread = (offset = 0) =>
  http.get<MessagePage>(SITE_MESSAGES_URL, { params: { offset, limit: MESSAGE_PAGE_SIZE, has_read: false } });

export const markAsRead = (ids: string[]) => http.patch(`${SITE_MESSAGES_URL}mark-as-read/`, { ids });

export const markAllAsRead = () => http.patch(`${SITE_MESSAGES_URL}mark-as-read-all/`, {});
