import type { FastifyInstance } from 'fastify';
import { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
import { operateLogResource } from './operateLogResource.ts';
import { passwordChangeLogResource } from './passwordChangeLogResource.ts';
import { registerJobLogRoutes } from './jobLogRoutes.ts';
import { registerUserSessionRoutes } from './userSessionRoutes.ts';

/** The audit logs beside the login logs: operate, password change, job logs and web sign-ins. */
export function registerAuditLogRoutes(app: FastifyInstance): void {
  // The detail, with its diff, is served by activityRoutes.ts (it also finds system-org logs).
  registerReadOnly(app, operateLogResource, 'audits.view_operatelog', { detail: false });
  registerReadOnly(app, passwordChangeLogResource, 'audits.view_passwordchangelog');
  registerJobLogRoutes(app);
  registerUserSessionRoutes(app);
}
