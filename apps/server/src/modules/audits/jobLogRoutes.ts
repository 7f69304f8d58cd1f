import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { JOB_CENTRE_TYPES } from '@gatehouse/contract';
import { f } from '../../resource/fields.ts';
import { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { AL } from './auditLogsText.ts';

/**
 * `job-logs/` (audits.view_joblog): every job execution of the current org, whoever ran it (the job
 * centre's own lists show each user theirs), read-only; filters and search `creator__name`,
 * `material`, the date range on `date_start`. The rows are the job centre's (`ops_jobexecution`).
 */
const t = 'ops_jobexecution';

export const jobLogResource: ResourceDef = {
  model: 'joblog',
  app: 'audits',
  url: '/api/v1/audits/job-logs/',
  table: t,
  label: AL.job_log,
  orgScoped: true,
  defaultOrder: ['-date_created'],
  dateRangeField: 'date_start',
  // The job centre's executions only: account automations keep theirs on their own pages.
  scope: (q) => q.where(sql.ref(`${t}.job_type`), 'in', [...JOB_CENTRE_TYPES]),
  fields: {
    id: f.id(),
    material: f.text(AL.material, { readOnly: true, search: true, filter: true }),
    time_cost: f.computed('field', AL.time_cost, (r) => Number(r.time_cost)),
    date_start: f.datetime(AL.date_start, { readOnly: true, order: true }),
    date_finished: f.datetime(AL.date_finished, { readOnly: true, order: true }),
    date_created: f.datetime(AL.date_created, { readOnly: true, order: true }),
    is_finished: f.bool(AL.is_finished, { readOnly: true, filter: true }),
    is_success: f.bool(AL.is_success, { readOnly: true, filter: true }),
    created_by: f.string(AL.created_by, { readOnly: true, search: true }),
    task_id: f.computed('string', AL.task_id, (r) => r.id),
  },
  extraFilters: {
    creator__name: (q, value) => q.where(sql.ref(`${t}.created_by`), 'like', `%${value}%`),
  },
};

export function registerJobLogRoutes(app: FastifyInstance): void {
  registerReadOnly(app, jobLogResource, 'audits.view_joblog');
}
