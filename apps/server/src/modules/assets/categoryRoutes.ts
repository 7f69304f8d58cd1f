import type { FastifyInstance } from 'fastify';
import { categoriesFor } from '@gatehouse/contract';
import { currentLicence } from '../xpack/licenceRoutes.ts';

/** `GET /api/v1/assets/categories/` and `categories/types/`. */
export function registerCategoryRoutes(app: FastifyInstance): void {
  app.get('/api/v1/assets/categories/', async (req) => categoriesFor(req.lang, (await currentLicence(req)).valid));
  app.get('/api/v1/assets/categories/types/', async (req) =>
    categoriesFor(req.lang, (await currentLicence(req)).valid).flatMap((c) => c.types),
  );
}
