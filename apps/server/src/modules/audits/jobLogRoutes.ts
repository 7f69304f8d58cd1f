import type { FastifyInstance } from 'fastify';
import { pageOf, type Query } from '../../resource/query.ts';
import { ApiError } from '../../http/errors.ts';
import { t } from '../../http/messages.ts';
import { AL } from './auditLogsText.ts';

/**
 * `job-logs/` (audits.view_joblog): the job centre's executions. There are none until the job
 * centre is built, so the list is empty with the contract's shape (a page when `limit` is given,
 * a list otherwise); OPTIONS describes the fields so the console draws its columns.
 */
const FIELDS = {
  id: ['string', AL.task_id],
  material: ['string', AL.material],
  time_cost: ['float', AL.time_cost],
  date_start: ['datetime', AL.date_start],
  date_finished: ['datetime', AL.date_finished],
  date_created: ['datetime', AL.date_created],
  is_finished: ['boolean', AL.is_finished],
  is_success: ['boolean', AL.is_success],
  created_by: ['string', AL.created_by],
  task_id: ['string', AL.task_id],
} as const;

export function registerJobLogRoutes(app: FastifyInstance): void {
  const config = { config: { perm: 'audits.view_joblog' } };
  app.get('/api/v1/audits/job-logs/', config, async (req) =>
    pageOf(req.query as Query) ? { count: 0, next: null, previous: null, results: [] } : [],
  );
  app.options('/api/v1/audits/job-logs/', config, async (req) => ({
    name: AL.job_log[req.lang],
    actions: {
      GET: Object.fromEntries(
        Object.entries(FIELDS).map(([name, [type, label]]) => [
          name,
          { type, required: false, read_only: true, label: label[req.lang] },
        ]),
      ),
    },
  }));
  app.get('/api/v1/audits/job-logs/:id/', config, async (req) => {
    throw new ApiError(404, {
      detail: t(req.lang, 'object_not_found', { model: 'JobExecution' }),
      code: 'object_does_not_exist',
    });
  });
}
