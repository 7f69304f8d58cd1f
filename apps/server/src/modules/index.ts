import type { FastifyInstance } from 'fastify';
import { registerLoginRoutes } from './authentication/loginRoutes.ts';
import { registerTokenRoutes } from './authentication/tokenRoutes.ts';
import { registerBrowserKeys } from './authentication/browserKeys.ts';
import { registerConfirmRoutes } from './authentication/confirmRoutes.ts';
import { registerMfaRoutes } from './authentication/mfaRoutes.ts';
import { registerOtpRoutes } from './authentication/otpRoutes.ts';
import { registerSiteMessageRoutes } from './notifications/siteMessageRoutes.ts';
import { registerSiteMessageSocket } from './notifications/siteMessageSocket.ts';
import { registerProfilePasswordRoutes } from './users/profilePassword.ts';
import { registerUsersModule } from './users/routes.ts';
import { registerRbacModule } from './rbac/routes.ts';
import { registerLicenceRoutes } from './xpack/licenceRoutes.ts';
import { registerSpmRoutes } from './common/spmRoutes.ts';
import { registerActivityRoutes } from './audits/activityRoutes.ts';
import { registerLoginLogRoutes } from './audits/loginLogRoutes.ts';
import { registerTaskLogSocket } from './ops/taskLogSocket.ts';
import { registerTaskLogPageRoute } from './ops/taskLogPageRoute.ts';
import { registerImportParsers } from '../resource/importParse.ts';
import { registerPublicSettingsRoutes } from './settings/publicRoutes.ts';
import { registerCurrentOrgRoutes } from './orgs/currentRoutes.ts';
import { registerAssetsModule } from './assets/routes.ts';
import { registerHealthRoutes } from './health/healthRoutes.ts';
import { registerIdentitySource } from '../http/identitySource.ts';
import { usersIdentitySource } from './users/identitySource.ts';
import { buildProfile } from './users/profile.ts';
import { registerApiDocs } from './apidocs/routes.ts';
import { registerAclsModule } from './acls/routes.ts';

/** Every API module; each registers its own routes. */
export async function registerModules(app: FastifyInstance): Promise<void> {
  // First: it collects every route registered after it for the OpenAPI description.
  registerApiDocs(app);
  registerIdentitySource(app, usersIdentitySource(app.deps.settings));
  registerHealthRoutes(app);
  registerLoginRoutes(app);
  registerTokenRoutes(app, buildProfile);
  registerBrowserKeys(app);
  registerConfirmRoutes(app);
  registerMfaRoutes(app);
  registerOtpRoutes(app);
  registerSiteMessageRoutes(app);
  registerSiteMessageSocket(app);
  registerProfilePasswordRoutes(app);
  registerImportParsers(app);
  registerUsersModule(app);
  registerRbacModule(app);
  await registerLicenceRoutes(app);
  registerSpmRoutes(app);
  registerActivityRoutes(app);
  registerLoginLogRoutes(app);
  registerTaskLogSocket(app);
  registerTaskLogPageRoute(app);
  registerPublicSettingsRoutes(app);
  registerCurrentOrgRoutes(app);
  registerAssetsModule(app);
  registerAclsModule(app);
}
