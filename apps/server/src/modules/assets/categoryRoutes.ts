import type { FastifyInstance } from 'fastify';
import { categoriesFor } from '@gatehouse/contract';

/** `GET /api/v1/assets/categories/` and `categories/types/` (api-contract §4.3). */
export function registerCategoryRoutes(app: FastifyInstance): void {
  app.get('/api/v1/assets/categories/', async (req) => categoriesFor(req.lang, false));
  app.get('/api/v1/assets/categories/types/', async (req) => categoriesFor(req.lang, false).flatMap((c) => c.types));
}
