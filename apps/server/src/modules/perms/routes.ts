import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../resource/routes.ts';
import { assetPermissionResource } from './permResource.ts';
import { registerPermDetailRoutes } from './permDetailRoutes.ts';
import { registerRelationRoutes } from './relationRoutes.ts';
import { registerUserGrantRoutes } from './userGrantRoutes.ts';
import { registerExpiryNotices } from './expiryNotices.ts';
import { registerAssetGranteeRoutes } from './assetGranteeRoutes.ts';

/** Asset permissions and what each user is granted (issue 15). */
export function registerPermsModule(app: FastifyInstance): void {
  registerResource(app, assetPermissionResource);
  registerPermDetailRoutes(app);
  registerRelationRoutes(app);
  registerUserGrantRoutes(app);
  registerAssetGranteeRoutes(app);
  registerExpiryNotices(app);
}
