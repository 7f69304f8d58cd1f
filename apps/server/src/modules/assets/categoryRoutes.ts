import type { FastifyInstance } from 'fastify';
import { categoriesFor } from '@gatehouse/contract';
import { currentLicence } from '../xpack/licenceRoutes.ts';
import { shape } from '../../resource/describe.ts';

/** `GET /api/v1/assets/categories/` and `categories/types/`. */
export function registerCategoryRoutes(app: FastifyInstance): void {
  const categories = {
    config: {
      describe: shape('category', { value: 'string', label: 'string', types: 'list' }),
    },
  };
  const types = {
    config: {
      describe: shape('asset_type', { value: 'string', label: 'string', category: 'string', constraints: 'json' }),
    },
  };
  app.get('/api/v1/assets/categories/', categories, async (req) =>
    categoriesFor(req.lang, (await currentLicence(req)).valid),
  );
  app.get('/api/v1/assets/categories/types/', types, async (req) =>
    categoriesFor(req.lang, (await currentLicence(req)).valid).flatMap((c) => c.types),
  );
}
