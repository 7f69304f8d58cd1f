import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './errors.ts';
import { t } from './messages.ts';

/**
 * Every websocket upgrade, before any handler sees it:
 * - a browser's `Origin` must be this site (same host as the request): a page on another site
 *   cannot open a socket with the user's cookies (cross-site websocket hijacking). Clients that
 *   send no Origin are not browsers, so carry no ambient credentials of a victim;
 * - one user holds at most LIMIT_WEBSOCKETS_PER_USER open sockets on this instance, whether the
 *   socket is signed in by the session cookie or by something the module behind it reads (a web
 *   terminal's connection token): such a module registers how to tell the socket's user
 *   (`registerWebsocketOwner`), so no way in escapes the count.
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

/** The user a websocket upgrade without a session acts as (read, not spent), or undefined. */
export type WebsocketOwner = (req: FastifyRequest) => Promise<string | undefined>;

const owners = new WeakMap<FastifyInstance, WebsocketOwner[]>();

export function registerWebsocketOwner(app: FastifyInstance, owner: WebsocketOwner): void {
  owners.set(app, [...(owners.get(app) ?? []), owner]);
}

async function ownerOf(app: FastifyInstance, req: FastifyRequest): Promise<string | undefined> {
  for (const owner of owners.get(app) ?? []) {
    const id = await owner(req);
    if (id) return id;
  }
  return undefined;
}

export function registerWebsocketGuard(app: FastifyInstance): void {
  const openByUser = new Map<string, number>();
  const pending = new WeakMap<IncomingMessage, string>();

  app.addHook('onRequest', async (req) => {
    if (!req.ws) return;
    if (!sameSiteOrigin(req))
      throw new ApiError(403, { detail: t(req.lang, 'websocket_origin'), code: 'websocket_origin' });
    const user = req.user?.id ?? (await ownerOf(app, req));
    if (!user) return; // the handler refuses it (close 4001)
    const max = app.deps.config.limits.websocketsPerUser;
    if ((openByUser.get(user) ?? 0) >= max)
      throw new ApiError(429, { detail: t(req.lang, 'websocket_limit', { max }), code: 'too_many_websockets' });
    pending.set(req.raw, user);
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
