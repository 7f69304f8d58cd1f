import { sql } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A part health reports as `<name>_status` and `<name>_time`; it throws when the part is down. */
export type HealthCheck = (req: FastifyRequest) => Promise<unknown>;

async function timed(fn: () => Promise<unknown>): Promise<{ ok: boolean; ms: number }> {
  const start = performance.now();
  try {
    await fn();
    return { ok: true, ms: performance.now() - start };
  } catch {
    return { ok: false, ms: performance.now() - start };
  }
}

const seconds = (ms: number) => Number((ms / 1000).toFixed(4));

/**
 * `GET /api/health/`: database and cache status, 503 when one is down, and the `reported` parts
 * (the replay store: modules/index.ts), which are told but keep the instance in service: while the
 * store is down recordings stay on the instance's disk (terminal/storage/replayStorages.ts), and a
 * balancer taking every instance out for it would cut every session (docs/deploy.md).
 */
async function health(req: FastifyRequest, reported: Record<string, HealthCheck>) {
  const names = Object.keys(reported);
  const [db, cache, ...parts] = await Promise.all([
    timed(() => sql`select 1`.execute(req.db)),
    timed(async () => {
      await req.server.deps.cache.set('health:ping', 1, 10);
      if ((await req.server.deps.cache.get('health:ping')) !== 1) throw new Error('cache read back failed');
    }),
    ...names.map((n) => timed(() => reported[n]!(req))),
  ]);
  const body: Record<string, boolean | number> = {
    status: db!.ok && cache!.ok,
    db_status: db!.ok,
    db_time: seconds(db!.ms),
    redis_status: cache!.ok,
    redis_time: seconds(cache!.ms),
  };
  names.forEach((n, i) => {
    body[`${n}_status`] = parts[i]!.ok;
    body[`${n}_time`] = seconds(parts[i]!.ms);
  });
  body.time = Math.floor(Date.now() / 1000);
  return body;
}

export function registerHealthRoutes(app: FastifyInstance, reported: Record<string, HealthCheck> = {}): void {
  for (const url of ['/api/health/', '/api/v1/health/']) {
    app.get(url, { config: { public: true } }, async (req, reply) => {
      const body = await health(req, reported);
      return reply.code(body.status ? 200 : 503).send(body);
    });
  }
}
