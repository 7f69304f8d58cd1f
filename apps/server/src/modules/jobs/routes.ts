import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../resource/routes.ts';
import { adhocResource } from './adhocResource.ts';
import { executionResource } from './executionResource.ts';
import { jobExecutionHandler } from './executionHandler.ts';
import { registerWake } from './executions.ts';
import { jobResource } from './jobResource.ts';
import { registerExecutionGuard, registerJobRoutes } from './jobRoutes.ts';
import { jobSchedules } from './jobSchedules.ts';
import { sshRunner } from './sshRunner.ts';
import { databaseRunner } from './databaseRunner.ts';
import { createAnsibleRunner } from '../ops/ansible/ansibleRunner.ts';

/**
 * The job centre (docs/ops.md, "Jobs and the execution engine"): ad-hoc commands, jobs, executions and their routes; the
 * engine's handler, schedules and the gateway's SSH runner. Its own module, above the terminal:
 * it needs grants (perms), accounts, the command filter and the gateway's SSH connection, which
 * sit above `ops/` where the engine lives.
 */
export function registerJobsModule(app: FastifyInstance): void {
  registerExecutionGuard(app);
  registerWake(app);
  registerResource(app, adhocResource);
  registerResource(app, jobResource);
  registerResource(app, executionResource);
  registerJobRoutes(app);
  app.jobEngine.setHandler(jobExecutionHandler(app));
  app.jobEngine.registerRunner(sshRunner(app));
  app.jobEngine.registerRunner(databaseRunner(app));
  app.jobEngine.registerRunner(createAnsibleRunner({ dataDir: app.deps.config.dataDir, log: (m) => app.log.info(m) }));
  app.jobEngine.setSchedules(jobSchedules(app));
}
