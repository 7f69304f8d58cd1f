import { sql } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';

async function timed(fn: () => Promise<unknown>): Promise<{ ok: boolean; ms: number }> {
  const start = performance.now();
  try {
    await fn();
    return { ok: true, ms: performance.now() - start };
  } catch {
    return { ok: false, ms: performance.now() - start };
  }
}

/** `GET /api/health/`: database and cache status, 503 when one is down. */
async function health(req: FastifyRequest) {
  const db = await timed(() => sql`select 1`.execute(req.db));
  const cache = await timed(async () => {
    await req.server.deps.cache.set('health:ping', 1, 10);
    if ((await req.server.deps.cache.get('health:ping')) !== 1) throw new Error('cache read back failed');
  });
  return {
    status: db.ok && cache.ok,
    db_status: db.ok,
    db_time: Number((db.ms / 1000).toFixed(4)),
    redis_status: cache.ok,
    redis_time: Number((cache.ms / 1000).toFixed(4)),
    time: Math.floor(Date.now() / 1000),
  };
}

export function registerHealthRoutes(app: FastifyInstance): void {
  for (const url of ['/api/health/', '/api/v1/health/']) {
    app.get(url, { config: { public: true } }, async (req, reply) => {
      const body = await health(req);
      return reply.code(body.status ? 200 : 503).send(body);
    });
  }
}
