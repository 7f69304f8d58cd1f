import type { FastifyInstance } from 'fastify';
import type { ScheduleSource } from '../ops/engine/scheduler.ts';
import { createAutomationExecution, type AutomationRow } from './automationExecutions.ts';

/**
 * Periodic automations as a schedule source of the engine (one scheduler, ticks claimed once
 * across instances, docs/ops.md): each due tick of an active periodic plan makes one execution,
 * triggered `timing`, as the user who created the plan (`created_by` is `name(username)`) or the system.
 */
export function automationSchedules(app: FastifyInstance): ScheduleSource {
  const db = () => app.deps.database.db;
  return {
    async periodic() {
      const rows = await db()
        .selectFrom('accounts_automation')
        .select(['id', 'crontab', 'interval'])
        .where('is_periodic', '=', true)
        .where('is_active', '=', true)
        .execute();
      return rows.map((r) => ({ id: r.id, crontab: r.crontab, interval: Number(r.interval) }));
    },
    async fire(id) {
      const a = (await db().selectFrom('accounts_automation').selectAll().where('id', '=', id).executeTakeFirst()) as
        AutomationRow | undefined;
      if (!a) return;
      const creator = await db()
        .selectFrom('users_user')
        .select('id')
        .where('username', '=', /\(([^()]*)\)$/.exec(a.created_by)?.[1] ?? a.created_by)
        .executeTakeFirst();
      const exec = await createAutomationExecution(db(), app, a, {
        creatorId: creator?.id ?? '',
        createdBy: a.created_by,
        trigger: 'timing',
      });
      app.log.info({ automation: id, execution: exec }, 'periodic automation fired');
      await app.jobEngine.queued();
    },
  };
}
