import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { registerResource } from '../../resource/routes.ts';
import { currentLicence } from '../xpack/licenceRoutes.ts';
import { accountResource } from './accountResource.ts';
import { cm } from './cloudMessages.ts';
import { strategyResource } from './strategyResource.ts';
import { cloudSyncHandler, CLOUD_JOB_TYPE } from './syncHandler.ts';
import { taskResource } from './taskResource.ts';
import { cloudSchedules, registerCloudTaskRoutes } from './taskRoutes.ts';

/**
 * Cloud sync (issue 35, docs/cloud.md): accounts, strategies and sync-instance tasks under
 * `/api/v1/xpack/cloud/`, their runs as executions of the job engine. An extension feature: every
 * route answers 403 without a valid licence (as tickets do), and the console hides its pages.
 */
export const CLOUD_PREFIX = '/api/v1/xpack/cloud/';

export function registerCloudModule(app: FastifyInstance): void {
  app.addHook('preHandler', async (req) => {
    if (!req.url.startsWith(CLOUD_PREFIX) || req.method === 'OPTIONS') return;
    if (!(await currentLicence(req)).valid) throw new ApiError(403, { detail: cm(req.lang, 'licence_required') });
  });
  registerResource(app, accountResource);
  registerResource(app, strategyResource);
  registerResource(app, taskResource);
  registerCloudTaskRoutes(app);
  app.jobEngine.setKindHandler(CLOUD_JOB_TYPE, cloudSyncHandler(app));
  app.jobEngine.setSchedules(cloudSchedules(app));
}
