import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOGIN_PATH } from '@gatehouse/contract';
import { sendConsolePage } from '../../http/console.ts';

/**
 * The replay, monitor and sharing pages, `/luna/replay/<id>`, `/luna/monitor/<id>` (the addresses the
 * original's console opens) and `/luna/share/<sharing id>` (a sharing's link): the `player.html` entry of the console build for a signed-in
 * user, else the login page with `next` back here. The page itself asks the API (replay, commands)
 * or the monitor socket, which check the permissions; the page carries none of the data.
 */
type PageReq = FastifyRequest<{ Params: { id: string } }>;

async function page(req: PageReq, reply: FastifyReply) {
  if (!req.user) return reply.redirect(`${LOGIN_PATH}?next=${encodeURIComponent(req.url)}`);
  return sendConsolePage(req, reply, 'player.html');
}

export function registerPlayerPages(app: FastifyInstance): void {
  for (const kind of ['replay', 'monitor', 'share']) {
    app.get(`/luna/${kind}/:id`, { config: { public: true } }, page);
    app.get(`/luna/${kind}/:id/`, { config: { public: true } }, page);
  }
}
