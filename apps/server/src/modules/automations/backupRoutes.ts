import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Selectable } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso } from '../../platform/db/schema.ts';
import { ApiError, permissionDenied } from '../../http/errors.ts';
import { requestPerms } from '../../http/permissions.ts';
import { f } from '../../resource/fields.ts';
import { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
import { registerResource } from '../../resource/routes.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { actorOf } from '../../resource/audit.ts';
import { requireSecretConfirm } from '../accounts/secretRoutes.ts';
import { wakeAfter } from '../jobs/executions.ts';
import { crontabError } from '../jobs/jobValidate.ts';
import { openTaskLog } from '../ops/taskLog.ts';
import type { ScheduleSource } from '../ops/engine/scheduler.ts';
import { AM, am } from './automationText.ts';
import { parseJson } from './automationExecutions.ts';
import { periodicDisplay } from './automationResource.ts';
import { TRIGGERS } from './executionRoutes.ts';
import { backupFile, backupHandler } from './backupRun.ts';
import { strangersOf } from './automationValidate.ts';

/**
 * Account backup plans (`account-backup-plans/`, contract §4.11) and their executions
 * (`account-backup-plan-executions/`: GET, POST `{plan}` → `{task}`), on the engine as
 * `job_type` account_backup. The encrypted file is downloaded from
 * `account-backup-plan-executions/<id>/download/` by a superuser who verified again; no one else.
 */
const P = 'accounts_backupplan';
const E = 'ops_jobexecution';
type PlanRow = Selectable<DB['accounts_backupplan']>;

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : parseJson<unknown[]>(v, []).map(String));

const BACKUP_TYPES = [
  { value: 'email', label: AM.backup_type_email },
  { value: 'object_storage', label: AM.backup_type_object_storage },
];

/** The ids that are not SFTP replay storages (the targets of a backup sent to object storage). */
async function notSftp(ctx: ResourceCtx, ids: string[]): Promise<string[]> {
  const known = new Set(
    (
      await ctx.db
        .selectFrom('terminal_replaystorage')
        .select('id')
        .where('id', 'in', ids)
        .where('type', '=', 'sftp')
        .execute()
    ).map((r) => r.id),
  );
  return ids.filter((id) => !known.has(id));
}

async function validatePlan(data: Row, ctx: ResourceCtx & { id?: string; before?: Row }) {
  const lang = ctx.req.lang;
  const j: Row = { ...(ctx.before ?? {}), ...data };
  const errors: Record<string, string[]> = {};
  if (!list(j.types).length) errors.types = [am(lang, 'types_required')];
  const toStorage = String(j.backup_type ?? 'email') === 'object_storage';
  for (const part of ['recipients_part_one', 'recipients_part_two'] as const) {
    const ids = [...new Set(list(j[part]))].slice(0, 1000);
    if (!ids.length) {
      if (!toStorage) errors[part] = [am(lang, 'parts_required')];
      if (part in data) data[part] = '[]';
      continue;
    }
    if (!(part in data)) continue;
    const strangers = await strangersOf(ctx, ids);
    if (strangers.length) errors[part] = [am(lang, 'recipients_invalid', { ids: strangers.join(', ') })];
    else data[part] = JSON.stringify(ids);
  }
  for (const part of ['obj_recipients_part_one', 'obj_recipients_part_two'] as const) {
    const ids = [...new Set(list(j[part]))].slice(0, 100);
    if (!ids.length) {
      if (toStorage) errors[part] = [am(lang, 'storage_parts_required')];
      if (part in data) data[part] = '[]';
      continue;
    }
    if (!(part in data)) continue;
    const wrong = await notSftp(ctx, ids);
    if (wrong.length) errors[part] = [am(lang, 'storages_invalid', { ids: wrong.join(', ') })];
    else data[part] = JSON.stringify(ids);
  }
  const cron = crontabError(lang, String(j.crontab ?? ''));
  if (cron) errors.crontab = [cron];
  if ('interval' in data && data.interval !== null) {
    const n = Number(data.interval);
    if (!Number.isInteger(n) || n < 1 || n > 65535) errors.interval = [am(lang, 'interval_range')];
  }
  return Object.keys(errors).length ? errors : undefined;
}

export const backupPlanResource: ResourceDef = {
  model: 'accountbackupautomation',
  app: 'accounts',
  url: '/api/v1/accounts/account-backup-plans/',
  table: P,
  label: AM.model_backup,
  orgScoped: true,
  defaultOrder: ['-date_updated'],
  fields: {
    id: f.id(),
    name: f.string(AM.f_name, { required: true, unique: true, search: true, filter: true, order: true }),
    is_periodic: f.bool(AM.f_is_periodic, { default: false }),
    interval: f.int(AM.f_interval, { default: 24 }),
    crontab: f.string(AM.f_crontab, { default: '' }),
    types: f.list(AM.f_types, { default: [] }),
    recipients_part_one: f.list(AM.f_recipients_part_one, { default: [] }),
    recipients_part_two: f.list(AM.f_recipients_part_two, { default: [] }),
    backup_type: f.choice(AM.f_backup_type, BACKUP_TYPES, { default: 'email', filter: true }),
    obj_recipients_part_one: f.list(AM.f_obj_recipients_part_one, { default: [] }),
    obj_recipients_part_two: f.list(AM.f_obj_recipients_part_two, { default: [] }),
    comment: f.comment(),
    periodic_display: f.computed('string', AM.f_periodic_display, (r, ctx) => periodicDisplay(r, ctx.req)),
    executed_amount: f.computed('integer', AM.f_executed_amount, (r) => Number(r._executed ?? 0)),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  async prepare(rows, ctx) {
    const ids = rows.map((r) => String(r.id));
    if (!ids.length) return;
    const counts = await ctx.db
      .selectFrom(E)
      .select((eb) => ['job_id', eb.fn.countAll<number>().as('n')])
      .where('job_id', 'in', ids)
      .groupBy('job_id')
      .execute();
    const by = new Map(counts.map((c) => [c.job_id, Number(c.n)]));
    for (const r of rows) r._executed = by.get(String(r.id)) ?? 0;
  },
  hooks: { validate: validatePlan },
};

const executionDef: ResourceDef = {
  model: 'accountbackupexecution',
  app: 'accounts',
  url: '/api/v1/accounts/account-backup-plan-executions/',
  table: E,
  label: AM.model_execution,
  orgScoped: true,
  defaultOrder: ['-date_created'],
  fields: {
    id: f.id(),
    snapshot: f.computed('json', AM.f_snapshot, (r) => {
      const v = parseJson<Row>(r.job_version, {});
      return { name: v.name, types: v.types, backup_type: v.backup_type ?? 'email' };
    }),
    plan: f.computed('string', AM.f_automation, (r) => r.job_id),
    trigger: f.choice(AM.f_trigger, TRIGGERS, { readOnly: true, filter: true }),
    status: f.string(AM.f_status, { readOnly: true, filter: true }),
    is_success: f.bool(AM.f_is_success, { readOnly: true }),
    date_start: f.datetime(AM.f_date_start, { readOnly: true, order: true }),
    date_created: f.dateCreated(),
    timedelta: f.computed('field', AM.f_timedelta, (r) => Number(r.time_cost)),
    reason: f.computed('string', AM.f_reason, (r) => String(parseJson<Row>(r.summary, {}).error ?? '')),
    backup_removed: f.computed(
      'datetime',
      AM.f_backup_removed,
      (r) => parseJson<Row>(r.summary, {}).backup_removed ?? null,
    ),
  },
  scope: (q) => q.where(sql.ref(`${E}.job_type`), '=', 'account_backup'),
  extraFilters: { plan_id: (q, value) => q.where(sql.ref(`${E}.job_id`), '=', value) },
};

async function createBackupExecution(
  db: ResourceCtx['db'],
  app: FastifyInstance,
  plan: PlanRow,
  who: { id: string; name: string },
  trigger: string,
) {
  const id = randomUUID();
  await db
    .insertInto(E)
    .values({
      id,
      job_id: plan.id,
      status: 'pending',
      trigger,
      parameters: '{}',
      material: `account_backup:${plan.name}`,
      job_type: 'account_backup',
      job_version: JSON.stringify({
        name: plan.name,
        types: list(plan.types),
        one: list(plan.recipients_part_one),
        two: list(plan.recipients_part_two),
        backup_type: plan.backup_type,
        obj_one: list(plan.obj_recipients_part_one),
        obj_two: list(plan.obj_recipients_part_two),
      }),
      summary: '{}',
      instance_id: null,
      is_finished: false,
      is_success: false,
      time_cost: 0,
      creator_id: who.id,
      created_by: who.name,
      date_created: nowIso(),
      date_start: null,
      date_finished: null,
      org_id: plan.org_id,
    })
    .execute();
  await openTaskLog(app.deps.cache, id, who.id);
  return id;
}

function backupSchedules(app: FastifyInstance): ScheduleSource {
  const db = () => app.deps.database.db;
  return {
    async periodic() {
      const rows = await db()
        .selectFrom(P)
        .select(['id', 'crontab', 'interval'])
        .where('is_periodic', '=', true)
        .execute();
      return rows.map((r) => ({ id: r.id, crontab: r.crontab, interval: Number(r.interval) }));
    },
    async fire(id) {
      const plan = await db().selectFrom(P).selectAll().where('id', '=', id).executeTakeFirst();
      if (!plan) return;
      await createBackupExecution(db(), app, plan, { id: '', name: plan.created_by }, 'timing');
      await app.jobEngine.queued();
    },
  };
}

async function ownExecution(req: FastifyRequest): Promise<string> {
  const id = (req.params as { id: string }).id;
  const row = /^[0-9a-f-]{36}$/i.test(id)
    ? await req.db
        .selectFrom(E)
        .select(['id', 'is_success'])
        .where('id', '=', id)
        .where('job_type', '=', 'account_backup')
        .where('org_id', '=', req.org.id)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError(404, { detail: am(req.lang, 'not_found'), code: 'not_found' });
  return row.id;
}

export function registerBackupRoutes(app: FastifyInstance): void {
  registerResource(app, backupPlanResource);
  registerReadOnly(app, executionDef, 'accounts.view_accountbackupautomation');
  app.post(executionDef.url, { config: { perm: 'accounts.change_accountbackupautomation' } }, async (req, reply) => {
    const id = String((req.body as { plan?: unknown } | undefined)?.plan ?? '');
    const plan = /^[0-9a-f-]{36}$/i.test(id)
      ? await req.db.selectFrom(P).selectAll().where('id', '=', id).where('org_id', '=', req.org.id).executeTakeFirst()
      : undefined;
    if (!plan) throw new ApiError(400, { plan: [am(req.lang, 'plan_required')] });
    const task = await createBackupExecution(req.db, app, plan, { id: req.user!.id, name: actorOf(req) }, 'manual');
    wakeAfter(req);
    return reply.code(201).send({ task });
  });
  // Superusers only, after verifying again: the file holds every secret of the plan's assets. No
  // role holds this permission (as the original's non-existent codenames, contract §4.11).
  app.get(
    `${executionDef.url}:id/download/`,
    { config: { perm: 'accounts.download_accountbackup', describe: { label: AM.model_backup, fields: {} } } },
    async (req, reply) => {
      if (!(await requestPerms(req)).isSuperuser) throw permissionDenied(req);
      const id = await ownExecution(req);
      await requireSecretConfirm(req);
      const file = backupFile(app.deps.config.dataDir, id);
      if (!fs.existsSync(file)) {
        // Removed by the daily clean-up (backupCleanup.ts), or never written.
        const row = await req.db.selectFrom(E).select('summary').where('id', '=', id).executeTakeFirst();
        const removed = parseJson<Row>(row?.summary, {}).backup_removed;
        const keep = Number(await app.deps.settings.get('TASK_LOG_KEEP_DAYS'));
        throw new ApiError(404, {
          detail: removed
            ? am(req.lang, 'backup_removed', { date: String(removed).slice(0, 10), days: keep })
            : am(req.lang, 'backup_missing'),
          code: 'not_found',
        });
      }
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="account-backup-${id}.csv.enc"`)
        .send(fs.createReadStream(file));
    },
  );
  app.jobEngine.setKindHandler('account_backup', backupHandler(app));
  app.jobEngine.setSchedules(backupSchedules(app));
}
