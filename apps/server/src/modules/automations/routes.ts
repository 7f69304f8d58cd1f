import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../resource/routes.ts';
import { AUTOMATION_TYPES } from './automationExecutions.ts';
import { automationHandler, automationRecovery } from './automationHandler.ts';
import { automationResource } from './automationResource.ts';
import { automationSchedules } from './automationSchedules.ts';
import { registerAutomationExecutionRoutes } from './executionRoutes.ts';
import { registerGatheredRoutes } from './gatheredRoutes.ts';
import { registerMembershipRoutes } from './membershipRoutes.ts';
import { registerPushNow } from './pushNow.ts';
import { registerBackupRoutes } from './backupRoutes.ts';
import { registerTemplateAccounts } from './templateAccounts.ts';
import { registerBackupCleanup } from './backupCleanup.ts';

/**
 * Account automations (docs/automations.md): change secret, push and gather plans, their
 * executions on the job centre's engine (handler and recovery per `job_type`, schedules as one
 * more source), per-account records and the gathered accounts. On top of the module stack: it
 * needs the vault, the gateway's SSH path and the job centre's wake-up and parallel helpers.
 */
export function registerAutomationsModule(app: FastifyInstance): void {
  const handler = automationHandler(app);
  const recovery = automationRecovery(app);
  for (const type of AUTOMATION_TYPES) {
    registerResource(app, automationResource(type));
    registerAutomationExecutionRoutes(app, type);
    registerMembershipRoutes(app, type);
    app.jobEngine.setKindHandler(type, handler, recovery);
  }
  registerGatheredRoutes(app);
  registerPushNow(app);
  registerTemplateAccounts(app);
  registerBackupRoutes(app);
  registerBackupCleanup();
  app.jobEngine.setSchedules(automationSchedules(app));
}
