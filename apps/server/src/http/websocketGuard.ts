import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './errors.ts';
import { t } from './messages.ts';

/**
 * Every websocket upgrade, before any handler sees it:
 * - a browser's `Origin` must be this site (same host as the request): a page on another site
 *   cannot open a socket with the user's cookies (cross-site websocket hijacking). Clients that
 *   send no Origin are not browsers, so carry no ambient credentials of a victim;
 * - one user holds at most LIMIT_WEBSOCKETS_PER_USER open sockets on this instance.
 */
export function sameSiteOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.host;
  } catch {
    return false;
  }
}

export function registerWebsocketGuard(app: FastifyInstance): void {
  const openByUser = new Map<string, number>();
  const pending = new WeakMap<IncomingMessage, string>();

  app.addHook('onRequest', async (req) => {
    if (!req.ws) return;
    if (!sameSiteOrigin(req))
      throw new ApiError(403, { detail: t(req.lang, 'websocket_origin'), code: 'websocket_origin' });
    if (!req.user) return; // the handler refuses it (close 4001)
    const max = app.deps.config.limits.websocketsPerUser;
    if ((openByUser.get(req.user.id) ?? 0) >= max)
      throw new ApiError(429, { detail: t(req.lang, 'websocket_limit', { max }), code: 'too_many_websockets' });
    pending.set(req.raw, req.user.id);
  });

  app.addHook('onReady', async () => {
    app.websocketServer.on('connection', (socket: { once(e: 'close', f: () => void): void }, raw: IncomingMessage) => {
      const user = pending.get(raw);
      if (!user) return;
      openByUser.set(user, (openByUser.get(user) ?? 0) + 1);
      socket.once('close', () => {
        const n = (openByUser.get(user) ?? 1) - 1;
        if (n > 0) openByUser.set(user, n);
        else openByUser.delete(user);
      });
    });
  });
}
