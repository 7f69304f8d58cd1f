import type { FastifyInstance } from 'fastify';
import { JobEngine } from './engine.ts';

/**
 * The execution engine of the instance (`app.jobEngine`): started when the app is ready, stopped
 * when it closes. Modules above set its handler, schedules and runners at registration.
 */
declare module 'fastify' {
  interface FastifyInstance {
    jobEngine: JobEngine;
  }
}

export function registerJobEngine(app: FastifyInstance): void {
  const engine = new JobEngine(app);
  app.decorate('jobEngine', engine);
  app.addHook('onReady', async () => engine.start());
  app.addHook('onClose', async () => engine.stop());
}
