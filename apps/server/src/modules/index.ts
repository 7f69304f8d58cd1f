import type { FastifyInstance } from 'fastify';
import { registerLoginRoutes } from './authentication/loginRoutes.ts';
import { registerTokenRoutes } from './authentication/tokenRoutes.ts';
import { registerUsersModule } from './users/routes.ts';
import { registerSpmRoutes } from './common/spmRoutes.ts';
import { registerActivityRoutes } from './audits/activityRoutes.ts';
import { registerImportParsers } from '../resource/importParse.ts';
import { registerPublicSettingsRoutes } from './settings/publicRoutes.ts';
import { registerCurrentOrgRoutes } from './orgs/currentRoutes.ts';
import { registerCategoryRoutes } from './assets/categoryRoutes.ts';
import { registerHealthRoutes } from './health/healthRoutes.ts';

/** Every API module; each registers its own routes. */
export function registerModules(app: FastifyInstance): void {
  registerHealthRoutes(app);
  registerLoginRoutes(app);
  registerTokenRoutes(app);
  registerImportParsers(app);
  registerUsersModule(app);
  registerSpmRoutes(app);
  registerActivityRoutes(app);
  registerPublicSettingsRoutes(app);
  registerCurrentOrgRoutes(app);
  registerCategoryRoutes(app);
}
