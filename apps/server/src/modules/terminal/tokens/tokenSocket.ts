import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { registerWebsocketOwner } from '../../../http/websocketGuard.ts';

/**
 * A websocket opened with a connection token (`?token=`): the web terminal's and the graphical
 * one. The token's user counts the socket against the per-user limit (http/websocketGuard.ts);
 * open sockets end with the server; `connect` does the protocol's own work, and `failed` tells the
 * browser in that protocol when it throws.
 */
export function registerTokenSocket(
  app: FastifyInstance,
  spec: {
    path: string;
    /** Names the socket in the log. */
    name: string;
    connect(app: FastifyInstance, socket: WebSocket, req: FastifyRequest): Promise<void>;
    failed(socket: WebSocket, req: FastifyRequest): void;
  },
): void {
  registerWebsocketOwner(app, async (req) => {
    if (!req.url.startsWith(spec.path)) return undefined;
    const token = (req.query as Record<string, unknown>).token;
    if (typeof token !== 'string' || !token) return undefined;
    const row = await req.server.deps.database.db
      .selectFrom('authentication_connectiontoken')
      .select('user_id')
      .where('id', '=', token)
      .executeTakeFirst()
      .catch(() => undefined);
    return row?.user_id ?? undefined;
  });
  const open = new Set<WebSocket>();
  app.addHook('preClose', async () => {
    for (const s of open) s.terminate();
    open.clear();
  });
  app.get(spec.path, { websocket: true, config: { public: true } }, (socket, req) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    spec.connect(app, socket, req).catch((e: Error) => {
      app.log.warn({ err: e.message }, `${spec.name} socket failed`);
      spec.failed(socket, req);
    });
  });
}
