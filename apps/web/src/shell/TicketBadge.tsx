import { useEffect, useState } from 'react';
import { http } from '../lib/http.ts';
import { badgeText } from './messages/messageFormat.ts';
import { useShellStore } from './shellStore.ts';
import styles from './Layout.module.css';

/**
 * The tickets icon's badge: how many open tickets wait for my decision (the list's first page of
 * 15, as spec 01 says, read from its `count`). It is asked again whenever the unread site-message
 * count changes (a new ticket for me comes with a message, live through the message socket), when
 * the ticket pages announce a decision, and every minute.
 */
export const TICKET_BADGE_URL = '/api/v1/tickets/tickets/';
const REFRESH_MS = 60_000;

export function useOpenAssignedTickets(userId: string | undefined): number {
  const unread = useShellStore((s) => s.unreadMessages);
  const [count, setCount] = useState(0);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), REFRESH_MS);
    const onChange = () => setTick((n) => n + 1);
    window.addEventListener('gatehouse:tickets-changed', onChange);
    return () => {
      clearInterval(timer);
      window.removeEventListener('gatehouse:tickets-changed', onChange);
    };
  }, []);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    http
      .get<{ count: number }>(TICKET_BADGE_URL, {
        params: { assignees__id: userId, status: 'open', offset: 0, limit: 15, display: 1, draw: 1 },
      })
      .then((page) => live && setCount(page.count))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [userId, unread, tick]);
  return count;
}

export function TicketBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <sup className={styles.badge} title={badgeText(count)} data-testid="ticket-badge">
      {badgeText(count)}
    </sup>
  );
}
