import type { FastifyInstance } from 'fastify';
import type { ScheduleSource } from '../ops/engine/scheduler.ts';
import { createExecution, type JobRow } from './executions.ts';

/** Periodic jobs as the engine's schedule source: each due tick makes one execution, as its creator. */
export function jobSchedules(app: FastifyInstance): ScheduleSource {
  const db = () => app.deps.database.db;
  return {
    async periodic() {
      const rows = await db()
        .selectFrom('ops_job')
        .select(['id', 'crontab', 'interval'])
        .where('is_periodic', '=', true)
        .where('instant', '=', false)
        .execute();
      return rows.map((r) => ({ id: r.id, crontab: r.crontab, interval: Number(r.interval) }));
    },
    async fire(id) {
      const job = (await db().selectFrom('ops_job').selectAll().where('id', '=', id).executeTakeFirst()) as
        JobRow | undefined;
      if (!job) return;
      const exec = await createExecution(db(), app, job, {
        creatorId: job.creator_id,
        createdBy: job.created_by,
        trigger: 'schedule',
      });
      app.log.info({ job: id, execution: exec }, 'periodic job fired');
      await app.jobEngine.queued();
    },
  };
}
