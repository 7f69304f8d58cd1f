import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { rt } from '../../resource/messages.ts';

/** `POST /api/v1/common/resources/cache/`: ids kept 300 s under an spm id. */
export const SPM_TTL_SECONDS = 300;

export function registerSpmRoutes(app: FastifyInstance): void {
  app.post('/api/v1/common/resources/cache/', async (req) => {
    const spm = randomUUID();
    const resources = (req.body as { resources?: unknown } | undefined)?.resources;
    if (Array.isArray(resources)) {
      // Bounded (LIMIT_SPM_IDS): any signed-in user can call this, and the ids stay in the cache.
      const max = app.deps.config.limits.spmIds;
      if (resources.length > max) throw new ApiError(400, { resources: [rt(req.lang, 'too_many_ids', { max })] });
      const ids = resources
        .map((r) => (r && typeof r === 'object' ? (r as { id?: unknown }).id : r))
        .filter((r) => typeof r === 'string' || typeof r === 'number')
        .map(String)
        .filter((id) => id.length <= 64);
      await req.server.deps.cache.set(`RESOURCE_IDS_${spm}`, ids, SPM_TTL_SECONDS);
    }
    return { spm };
  });
}
