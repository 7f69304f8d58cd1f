import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { t as ht } from '../../http/messages.ts';
import { shape } from '../../resource/describe.ts';
import { actorOf } from '../../resource/audit.ts';
import { openTaskLog } from '../ops/taskLog.ts';
import { wakeAfter } from '../jobs/executions.ts';
import type { ScheduleSource } from '../ops/engine/scheduler.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { accountContext } from './accountSecrets.ts';
import { cm } from './cloudMessages.ts';
import { CloudError } from './providers/provider.ts';
import { CLOUD_JOB_TYPE } from './syncHandler.ts';
import { recountOrg } from '../assets/nodeStore.ts';

/**
 * Cloud sync's routes beside its resources (console reference §3.12): an account's test and
 * regions, a task's run (an execution of the job engine, answered with its task id for the task
 * log), its history (executions), one execution's per-instance records and the task's instances.
 * Objects are found in the caller's org (any org from the root org): another org's answer 404.
 */
const BASE = '/api/v1/xpack/cloud';
const TEST_TIMEOUT_MS = 30_000;
const HISTORY_LIMIT = 100;
const RECORDS_LIMIT = 1000;

function inOrg<T extends { where: (...a: never[]) => T }>(req: FastifyRequest, q: T): T {
  return req.org.id === ROOT_ORG_ID
    ? q
    : (q as unknown as { where: (c: string, o: string, v: string) => T }).where('org_id', '=', req.org.id);
}

const notFound = (req: FastifyRequest) => new ApiError(404, { detail: ht(req.lang, 'not_found') });

async function findAccount(req: FastifyRequest, id: string) {
  const row = await inOrg(
    req,
    req.db.selectFrom('cloud_account').select(['id', 'org_id']).where('id', '=', id),
  ).executeTakeFirst();
  if (!row) throw notFound(req);
  return row;
}

async function findTask(req: FastifyRequest, id: string) {
  const row = await inOrg(req, req.db.selectFrom('cloud_synctask').selectAll().where('id', '=', id)).executeTakeFirst();
  if (!row) throw notFound(req);
  return row;
}

/** A provider's failure in the caller's language (wrong credentials, garbage, throttling, slowness). */
function providerError(req: FastifyRequest, e: unknown): ApiError {
  const message =
    e instanceof CloudError
      ? cm(req.lang, e.key, e.params)
      : cm(req.lang, 'provider_unreachable', { detail: (e as Error).message });
  return new ApiError(400, { error: message, detail: message });
}

export async function createSyncExecution(
  db: Kysely<DB>,
  task: { id: string; name: string; org_id: string },
  o: { creatorId: string; createdBy: string; trigger: 'manual' | 'schedule' },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('ops_jobexecution')
    .values({
      id,
      job_id: task.id,
      status: 'pending',
      trigger: o.trigger,
      parameters: '{}',
      material: `cloud sync: ${task.name}`,
      job_type: CLOUD_JOB_TYPE,
      job_version: JSON.stringify({ name: task.name }),
      summary: '{}',
      instance_id: null,
      is_finished: false,
      is_success: false,
      time_cost: 0,
      creator_id: o.creatorId,
      created_by: o.createdBy,
      date_created: new Date().toISOString(),
      date_start: null,
      date_finished: null,
      org_id: task.org_id,
    })
    .execute();
  return id;
}

export function registerCloudTaskRoutes(app: FastifyInstance): void {
  app.get(
    `${BASE}/accounts/:id/test-connective/`,
    { config: { perm: 'xpack.change_account', describe: shape('validity', { validity: 'boolean', msg: 'string' }) } },
    async (req) => {
      const { id } = req.params as { id: string };
      await findAccount(req, id);
      const abort = AbortSignal.timeout(TEST_TIMEOUT_MS);
      let regions: string[] = [];
      let error: ApiError | undefined;
      try {
        const { provider, ctx } = await accountContext(req.db, req.server.deps.secretBox, id, abort);
        await provider.test(ctx);
        regions = await provider.regions(ctx);
      } catch (e) {
        error = providerError(req, e);
      }
      await req.db
        .updateTable('cloud_account')
        .set({ validity: !error, date_last_test: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      if (error) throw error;
      return { validity: true, msg: cm(req.lang, 'test_ok', { regions: regions.length }) };
    },
  );

  app.get(
    `${BASE}/regions/`,
    { config: { perm: 'xpack.view_account', describe: shape('regions', { regions: 'list' }) } },
    async (req) => {
      const id = String((req.query as { account_id?: string }).account_id ?? '');
      await findAccount(req, id);
      try {
        const { provider, ctx } = await accountContext(
          req.db,
          req.server.deps.secretBox,
          id,
          AbortSignal.timeout(TEST_TIMEOUT_MS),
        );
        return { regions: await provider.regions(ctx) };
      } catch (e) {
        throw providerError(req, e);
      }
    },
  );

  app.get(
    `${BASE}/sync-instance-tasks/:id/run/`,
    {
      config: {
        perm: 'xpack.add_syncinstancetaskexecution',
        describe: shape('task', { task: 'string', task_id: 'string' }),
      },
    },
    async (req) => {
      const task = await findTask(req, (req.params as { id: string }).id);
      const id = await createSyncExecution(req.db, task, {
        creatorId: req.user!.id,
        createdBy: actorOf(req),
        trigger: 'manual',
      });
      await openTaskLog(req.server.deps.cache, id, req.user!.id);
      wakeAfter(req);
      return { task: id, task_id: id };
    },
  );

  const executionShape = shape('task', {
    id: 'string',
    status: 'string',
    trigger: 'string',
    summary: 'json',
    is_finished: 'boolean',
    is_success: 'boolean',
    time_cost: 'field',
    date_start: 'datetime',
    date_finished: 'datetime',
    date_created: 'datetime',
  });
  app.get(
    `${BASE}/sync-instance-tasks/:id/history/`,
    { config: { perm: 'xpack.view_syncinstancetaskexecution', describe: executionShape } },
    async (req) => {
      const task = await findTask(req, (req.params as { id: string }).id);
      const rows = await req.db
        .selectFrom('ops_jobexecution')
        .select([
          'id',
          'status',
          'trigger',
          'summary',
          'is_finished',
          'is_success',
          'time_cost',
          'date_start',
          'date_finished',
          'date_created',
        ])
        .where('job_id', '=', task.id)
        .where('job_type', '=', CLOUD_JOB_TYPE)
        .orderBy('date_created', 'desc')
        .limit(HISTORY_LIMIT)
        .execute();
      return rows.map((r) => ({
        ...r,
        is_finished: Boolean(r.is_finished),
        is_success: Boolean(r.is_success),
        time_cost: Number(r.time_cost),
        summary: JSON.parse(r.summary || '{}') as unknown,
      }));
    },
  );

  app.get(
    `${BASE}/sync-instance-tasks/:id/history/:execution/`,
    {
      config: {
        perm: 'xpack.view_syncinstancetaskexecution',
        describe: shape('results', {
          instance_id: 'string',
          name: 'string',
          address: 'string',
          action: 'string',
          reason: 'string',
        }),
      },
    },
    async (req) => {
      const { id, execution } = req.params as { id: string; execution: string };
      const task = await findTask(req, id);
      const action = (req.query as { action?: string }).action;
      let q = req.db
        .selectFrom('cloud_syncrecord')
        .select(['instance_id', 'name', 'address', 'action', 'reason', 'date_created'])
        .where('task_id', '=', task.id)
        .where('execution_id', '=', execution);
      if (action) q = q.where('action', '=', action);
      return q.orderBy('date_created').limit(RECORDS_LIMIT).execute();
    },
  );

  app.get(
    `${BASE}/sync-instance-tasks/:id/instances/`,
    {
      config: {
        perm: 'xpack.view_syncinstancetask',
        describe: shape('results', {
          instance_id: 'string',
          region: 'string',
          name: 'string',
          address: 'string',
          asset_id: 'string',
          status: 'string',
          date_sync: 'datetime',
        }),
      },
    },
    async (req) => {
      const task = await findTask(req, (req.params as { id: string }).id);
      return req.db
        .selectFrom('cloud_syncinstance')
        .select(['instance_id', 'region', 'name', 'address', 'asset_id', 'status', 'date_sync'])
        .where('task_id', '=', task.id)
        .orderBy('name')
        .limit(RECORDS_LIMIT)
        .execute();
    },
  );
  registerReleasedAssets(app);
}

/**
 * `DELETE sync-instance-tasks/<id>/released-assets/` (the detail's "release"): the assets still
 * kept for the task's released instances (policy `disable` or `keep`) are deleted, and the
 * instances forget them; answers how many. The assets of instances still present are not touched.
 */
function registerReleasedAssets(app: FastifyInstance): void {
  app.delete(
    `${BASE}/sync-instance-tasks/:id/released-assets/`,
    { config: { perm: 'xpack.change_syncinstancetask' } },
    async (req) => {
      const task = await findTask(req, (req.params as { id: string }).id);
      const released = await req.db
        .selectFrom('cloud_syncinstance')
        .select(['id', 'asset_id'])
        .where('task_id', '=', task.id)
        .where('status', '=', 'released')
        .where('asset_id', 'is not', null)
        .execute();
      for (let i = 0; i < released.length; i += 500) {
        const page = released.slice(i, i + 500);
        await req.db.transaction().execute(async (tx) => {
          await tx
            .deleteFrom('assets_asset')
            .where(
              'id',
              'in',
              page.map((r) => r.asset_id!),
            )
            .where('org_id', '=', task.org_id)
            .execute();
          await tx
            .updateTable('cloud_syncinstance')
            .set({ asset_id: null })
            .where(
              'id',
              'in',
              page.map((r) => r.id),
            )
            .execute();
        });
      }
      if (released.length) await recountOrg({ db: req.db, dialect: req.server.deps.database.dialect }, task.org_id);
      return { deleted: released.length };
    },
  );
}

/** Periodic tasks as a schedule source of the engine: each due tick makes one execution, as the task's creator. */
export function cloudSchedules(app: FastifyInstance): ScheduleSource {
  const db = () => app.deps.database.db;
  return {
    async periodic() {
      const rows = await db()
        .selectFrom('cloud_synctask')
        .select(['id', 'crontab', 'interval'])
        .where('is_periodic', '=', true)
        .execute();
      return rows.map((r) => ({ id: r.id, crontab: r.crontab, interval: Number(r.interval) }));
    },
    async fire(id) {
      const task = await db().selectFrom('cloud_synctask').selectAll().where('id', '=', id).executeTakeFirst();
      if (!task) return;
      const exec = await createSyncExecution(db(), task, {
        creatorId: task.creator_id,
        createdBy: task.created_by,
        trigger: 'schedule',
      });
      await openTaskLog(app.deps.cache, exec, task.creator_id);
      app.log.info({ task: id, execution: exec }, 'periodic cloud sync fired');
      await app.jobEngine.queued();
    },
  };
}
