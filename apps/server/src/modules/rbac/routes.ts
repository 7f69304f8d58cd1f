import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../resource/routes.ts';
import { roleResource } from './roleResource.ts';
import { bindingResource } from './bindingResource.ts';
import { registerPermissionRoutes } from './permissionRoutes.ts';

/** `/api/v1/rbac/`. */
export function registerRbacModule(app: FastifyInstance): void {
  registerPermissionRoutes(app);
  for (const scope of ['any', 'system', 'org'] as const) {
    registerResource(app, roleResource(scope));
    registerResource(app, bindingResource(scope));
  }
}
