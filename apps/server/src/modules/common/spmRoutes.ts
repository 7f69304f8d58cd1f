import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** `POST /api/v1/common/resources/cache/`: ids kept 300 s under an spm id. */
export const SPM_TTL_SECONDS = 300;

export function registerSpmRoutes(app: FastifyInstance): void {
  app.post('/api/v1/common/resources/cache/', async (req) => {
    const spm = randomUUID();
    const resources = (req.body as { resources?: unknown } | undefined)?.resources;
    if (Array.isArray(resources)) {
      const ids = resources
        .map((r) => (r && typeof r === 'object' ? (r as { id?: unknown }).id : r))
        .filter((r) => typeof r === 'string' || typeof r === 'number')
        .map(String);
      await req.server.deps.cache.set(`RESOURCE_IDS_${spm}`, ids, SPM_TTL_SECONDS);
    }
    return { spm };
  });
}
