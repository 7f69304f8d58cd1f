import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../lib/LazyApp.tsx';
import { useShellStore } from '../shellStore.ts';
import { unreadOfFrame } from './messageFormat.ts';

export const SITE_MSG_SOCKET_PATH = '/ws/notifications/site-msg/';

export function socketUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${SITE_MSG_SOCKET_PATH}`;
}

/**
 * Keeps the unread count of the bell live: the server pushes
 * `{unread_count}` on connect and on every change. A connection error shows the websocket error
 * message; a frame that does not parse is only logged. Like the original, it does not reconnect.
 */
export function useSiteMessageSocket(): void {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const setUnread = useShellStore((s) => s.setUnreadMessages);
  useEffect(() => {
    const ws = new WebSocket(socketUrl());
    let closing = false;
    ws.onmessage = (ev: MessageEvent) => {
      try {
        const n = unreadOfFrame(String(ev.data));
        if (n !== undefined) setUnread(n);
      } catch (e) {
        console.error('site-message socket: unreadable frame', e);
      }
    };
    ws.onerror = () => {
      if (!closing) void message.error(t('messages.socketError'));
    };
    return () => {
      closing = true;
      ws.close();
    };
  }, [message, setUnread, t]);
}
