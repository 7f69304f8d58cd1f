import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../../resource/routes.ts';
import { registerPlaybookFileRoutes } from './fileRoutes.ts';
import { playbookResource } from './playbookResource.ts';
import { registerUploadCleanup } from './playbookUpload.ts';

/** Playbooks: the resource, its file browser and the clean-up of failed uploads. */
export function registerPlaybookRoutes(app: FastifyInstance): void {
  registerResource(app, playbookResource);
  registerPlaybookFileRoutes(app);
  registerUploadCleanup(app);
}
