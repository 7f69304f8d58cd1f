import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../resource/routes.ts';
import { userResource } from './userResource.ts';
import { groupResource } from './groupResource.ts';
import { registerUserActions } from './userActions.ts';
import { registerGroupRelations } from './groupRelations.ts';
import { registerProfileRoutes } from './profile.ts';
import { registerExportGuard } from './exportGuard.ts';
import { registerInviteRoute } from './invite.ts';
import { registerProfilePublicKeyRoutes } from './profilePublicKey.ts';
import { registerImUnbindRoutes } from './imUnbind.ts';

export function registerUsersModule(app: FastifyInstance): void {
  registerExportGuard(app);
  registerProfileRoutes(app);
  registerProfilePublicKeyRoutes(app);
  registerUserActions(app);
  registerImUnbindRoutes(app);
  registerInviteRoute(app);
  registerGroupRelations(app);
  registerResource(app, userResource);
  registerResource(app, groupResource);
}
