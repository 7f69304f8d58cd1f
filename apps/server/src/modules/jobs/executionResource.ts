import { sql } from 'kysely';
import { JOB_CENTRE_TYPES } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { t as ht } from '../../http/messages.ts';
import { f } from '../../resource/fields.ts';
import type { ResourceDef, Row } from '../../resource/types.ts';
import { actorOf } from '../../resource/audit.ts';
import { JM } from './jobMessages.ts';
import { createExecution, wakeAfter, type JobRow } from './executions.ts';

/**
 * Executions (`ops/job-executions/`): each user's own, in the current org; filters `status`,
 * `job_id`, search `material`. `POST {job, parameters}` starts a run of one of the user's jobs and
 * answers it with `task_id` (= its id); the engine runs it after the answer.
 */
const t = 'ops_jobexecution';

const parse = (v: unknown, fallback: unknown) => {
  try {
    return JSON.parse(String(v));
  } catch {
    return fallback;
  }
};

export const STATUS_CHOICES = (['pending', 'running', 'success', 'failed', 'timeout'] as const).map((s) => ({
  value: s,
  label: JM[`status_${s}`],
}));

export const executionResource: ResourceDef = {
  model: 'jobexecution',
  app: 'ops',
  url: '/api/v1/ops/job-executions/',
  table: t,
  label: JM.model_execution,
  orgScoped: true,
  defaultOrder: ['-date_created'],
  dateRangeField: 'date_created',
  fields: {
    id: f.id(),
    task_id: f.computed('string', JM.f_task_id, (r) => r.id),
    status: f.choice(JM.f_status, STATUS_CHOICES, { readOnly: true, filter: true }),
    timedelta: f.computed('field', JM.f_timedelta, (r) => Number(r.time_cost)),
    time_cost: f.computed('field', JM.f_time_cost, (r) => Number(r.time_cost)),
    is_finished: f.bool(JM.f_is_finished, { readOnly: true, filter: true }),
    is_success: f.bool(JM.f_is_success, { readOnly: true, filter: true }),
    date_start: f.datetime(JM.f_date_start, { readOnly: true, order: true }),
    date_finished: f.datetime(JM.f_date_finished, { readOnly: true, order: true }),
    date_created: f.dateCreated(),
    job_type: f.string(JM.f_job_type, { readOnly: true, filter: true }),
    summary: f.computed('json', JM.f_summary, (r) => parse(r.summary, {})),
    material: f.text(JM.f_material, { readOnly: true, search: true }),
    job: f.fk(
      JM.f_job,
      {
        table: 'ops_job',
        choosable: (q, ctx) => q.where('creator_id', '=', ctx.req.user?.id ?? '').where('org_id', '=', ctx.req.org.id),
      },
      { required: true },
    ),
    parameters: f.json(JM.f_parameters, { default: {} }),
    creator: f.computed('json', JM.f_creator, (r) => ({ id: r.creator_id, name: r.created_by })),
  },
  extraFilters: {
    job_id: (q, value) => q.where(sql.ref(`${t}.job_id`), '=', value),
  },
  scope: (q, ctx) =>
    q
      .where(sql.ref(`${t}.creator_id`), '=', ctx.req.user?.id ?? '')
      .where(sql.ref(`${t}.job_type`), 'in', [...JOB_CENTRE_TYPES]),
  hooks: {
    // An execution is a record of what ran: made by POST, never edited (the contract: GET and POST).
    beforeValidate(_body, ctx, before) {
      if (before)
        throw new ApiError(405, { detail: ht(ctx.req.lang, 'method_not_allowed', { method: ctx.req.method }) });
    },
    async createInstead(data, ctx) {
      const job = (await ctx.db
        .selectFrom('ops_job')
        .selectAll()
        .where('id', '=', String(data.job))
        .executeTakeFirstOrThrow()) as JobRow;
      const id = await createExecution(ctx.db, ctx.req.server, job, {
        creatorId: ctx.req.user!.id,
        createdBy: actorOf(ctx.req),
        trigger: 'manual',
        parameters: parse(data.parameters, {}) as Record<string, unknown>,
      });
      wakeAfter(ctx.req);
      return (await ctx.db.selectFrom(t).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Row;
    },
  },
};
