import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { SITE_MSG_CHANNEL, unreadTotal, type UnreadChanged } from './siteMessages.ts';

/**
 * WebSocket `/ws/notifications/site-msg/`: signed in by the session cookie or
 * a Bearer token (the usual identification runs on the upgrade request). Pushes
 * `{"type": "unread_count", "unread_count": n}` on connect and whenever the bus announces a change
 * for the user, wherever it happened. Messages from the client (`refresh_every_seconds`) are accepted
 * and ignored: counts are pushed, not polled.
 */
export const SITE_MSG_SOCKET_PATH = '/ws/notifications/site-msg/';

export function registerSiteMessageSocket(app: FastifyInstance): void {
  const sockets = new Map<string, Set<WebSocket>>();
  let unsubscribe: (() => Promise<void>) | undefined;

  const push = async (userId: string) => {
    const targets = sockets.get(userId);
    if (!targets?.size) return;
    const payload = JSON.stringify({
      type: 'unread_count',
      unread_count: await unreadTotal(app.deps.database.db, userId),
    });
    for (const s of targets) if (s.readyState === s.OPEN) s.send(payload);
  };

  const onChange = (message: unknown) => {
    const change = message as UnreadChanged;
    const users = change.all ? [...sockets.keys()] : (change.user_ids ?? []).filter((id) => sockets.has(id));
    for (const id of users)
      push(id).catch((e: Error) => app.log.warn({ err: e.message }, 'site-message count push failed'));
  };

  app.addHook('onReady', async () => {
    unsubscribe = await app.deps.bus.subscribe(SITE_MSG_CHANNEL, onChange);
  });
  app.addHook('preClose', async () => {
    await unsubscribe?.();
    for (const set of sockets.values()) for (const s of set) s.terminate();
    sockets.clear();
  });

  app.get(SITE_MSG_SOCKET_PATH, { websocket: true, config: { public: true } }, (socket, req) => {
    const user = req.user;
    if (!user) {
      socket.close(4001, 'not authenticated');
      return;
    }
    let set = sockets.get(user.id);
    if (!set) sockets.set(user.id, (set = new Set()));
    set.add(socket);
    socket.on('close', () => {
      set.delete(socket);
      if (set.size === 0 && sockets.get(user.id) === set) sockets.delete(user.id);
    });
    socket.on('message', () => undefined);
    void unreadTotal(app.deps.database.db, user.id)
      .then(
        (n) =>
          socket.readyState === socket.OPEN && socket.send(JSON.stringify({ type: 'unread_count', unread_count: n })),
      )
      .catch(() => socket.close(1011, 'server error'));
  });
}
