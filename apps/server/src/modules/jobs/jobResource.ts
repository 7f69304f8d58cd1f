import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { f } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { actorOf } from '../../resource/audit.ts';
import { toBool } from '../../platform/db/schema.ts';
import { JM } from './jobMessages.ts';
import { JOB_MODULES, moduleChoices, policyChoices } from './jobModules.ts';
import { createExecution, wakeAfter, type JobRow } from './executions.ts';
import { validateJob } from './jobValidate.ts';

/**
 * Jobs (`ops/jobs/`): each user's own, in the current org. The list hides instant jobs (the quick
 * jobs' records), which stay readable by id. Creating an instant job, or any job with
 * `run_after_save`, starts an execution in the same transaction and answers its id as `task_id`.
 */
const t = 'ops_job';
const taskIds = new WeakMap<FastifyRequest, Map<string, string>>();

async function runIfAsked(ctx: ResourceCtx, id: string, data: Row, created: boolean): Promise<void> {
  const job = (await ctx.db.selectFrom('ops_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as JobRow;
  if (!(created && toBool(job.instant)) && !data.run_after_save) return;
  const exec = await createExecution(ctx.db, ctx.req.server, job, {
    creatorId: ctx.req.user!.id,
    createdBy: actorOf(ctx.req),
    trigger: 'manual',
  });
  const m = taskIds.get(ctx.req) ?? new Map<string, string>();
  m.set(id, exec);
  taskIds.set(ctx.req, m);
  wakeAfter(ctx.req);
}

const listOf = (v: unknown): unknown[] => {
  try {
    const x = JSON.parse(String(v ?? '[]')) as unknown;
    return Array.isArray(x) ? x : [];
  } catch {
    return [];
  }
};

export const jobResource: ResourceDef = {
  model: 'job',
  app: 'ops',
  url: '/api/v1/ops/jobs/',
  table: t,
  label: JM.model_job,
  orgScoped: true,
  defaultOrder: ['-date_updated'],
  fields: {
    id: f.id(),
    name: f.string(JM.f_name, {
      search: true,
      filter: true,
      order: true,
      default: () => `job-${randomBytes(4).toString('hex')}`,
      toStorage: (v) => (String(v ?? '').trim() ? v : `job-${randomBytes(4).toString('hex')}`),
    }),
    instant: f.bool(JM.f_instant, { default: false, filter: true }),
    type: f.choice(
      JM.f_type,
      [
        { value: 'adhoc', label: JM.type_adhoc },
        { value: 'playbook', label: JM.type_playbook },
      ],
      { default: 'adhoc', filter: true },
    ),
    module: f.choice(JM.f_module, moduleChoices(JOB_MODULES), { default: 'shell', filter: true }),
    args: f.text(JM.f_args, { default: '', search: true }),
    // The creator's own playbooks of the org (ops/playbooks/), checked again in jobValidate.ts.
    playbook: f.fk(JM.f_playbook, {
      table: 'ops_playbook',
      choosable: (q, ctx) => q.where('creator_id', '=', ctx.req.user?.id ?? '').where('org_id', '=', ctx.req.org.id),
    }),
    assets: f.list(JM.f_assets, { default: [] }),
    nodes: f.list(JM.f_nodes, { default: [] }),
    runas: f.string(JM.f_runas, { default: 'root' }),
    runas_policy: f.choice(JM.f_runas_policy, policyChoices, { default: 'skip' }),
    use_parameter_define: f.bool(JM.f_use_parameter_define, { default: false }),
    parameters_define: f.json(JM.f_parameters_define, { default: {} }),
    timeout: f.int(JM.f_timeout, { default: -1, minValue: -1 }),
    chdir: f.string(JM.f_chdir, { default: '', maxLength: 1024 }),
    comment: f.comment(),
    is_periodic: f.bool(JM.f_is_periodic, { default: false, filter: true }),
    interval: f.int(JM.f_interval, { default: 24 }),
    crontab: f.string(JM.f_crontab, { default: '' }),
    run_after_save: f.bool(JM.f_run_after_save, { default: false, writeOnly: true, column: false }),
    date_last_run: f.datetime(JM.f_date_last_run, { readOnly: true, order: true }),
    asset_amount: f.computed('integer', JM.f_asset_amount, (r) => listOf(r.assets).length),
    average_time_cost: f.computed('field', JM.f_average_time_cost, (r) => Number(r._avg ?? 0)),
    summary: f.computed('json', JM.f_summary, (r) => ({ total: Number(r._total ?? 0), success: Number(r._ok ?? 0) })),
    task_id: f.computed('string', JM.f_task_id, (r, ctx) => taskIds.get(ctx.req)?.get(String(r.id)) ?? null),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  // Own jobs only; the list (no id in the path) leaves out instant ones.
  scope: (q, ctx) => {
    let out = q.where(sql.ref(`${t}.creator_id`), '=', ctx.req.user?.id ?? '');
    if (!(ctx.req.params as { id?: string } | undefined)?.id) out = out.where(sql.ref(`${t}.instant`), '=', false);
    return out;
  },
  async prepare(rows, ctx) {
    const ids = rows.map((r) => String(r.id));
    if (!ids.length) return;
    const stats = await ctx.db
      .selectFrom('ops_jobexecution')
      .select((eb) => [
        'job_id',
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(sql`case when is_success then 1 else 0 end`).as('ok'),
        eb.fn.avg<number>('time_cost').as('avg'),
      ])
      .where('job_id', 'in', ids)
      .where('is_finished', '=', true)
      .groupBy('job_id')
      .execute();
    const by = new Map(stats.map((s) => [s.job_id, s]));
    for (const r of rows) {
      const s = by.get(String(r.id));
      r._total = s?.total ?? 0;
      r._ok = s?.ok ?? 0;
      r._avg = s?.avg ?? 0;
    }
  },
  hooks: {
    validate: validateJob,
    beforeInsert(values, _data, ctx) {
      values.creator_id = ctx.req.user!.id;
    },
    afterCreate: (e) => runIfAsked(e.ctx, e.id, e.data, true),
    afterUpdate: (e) => runIfAsked(e.ctx, e.id, e.data, false),
  },
};
