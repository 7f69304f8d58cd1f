import type { FastifyInstance } from 'fastify';

/**
 * One info line per HTTP request once it is answered: method, path (without the query string,
 * whose values can carry tokens), status, time and the signed-in user. The console's hashed
 * assets are left out (a page load fetches dozens); they are at debug.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    const line = {
      method: req.method,
      path,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      ...(req.user ? { user: req.user.username } : {}),
    };
    if (path.startsWith('/ui/assets/')) req.log.debug(line, 'request');
    else req.log.info(line, 'request');
  });
}
