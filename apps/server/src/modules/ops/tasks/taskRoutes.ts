import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../http/errors.ts';
import { shape } from '../../../resource/describe.ts';
import { pageOfResults } from '../../../resource/pagination.ts';
import { pageOf } from '../../../resource/query.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { om } from '../opsMessages.ts';
import { isEnabled, runTask, tasksOf, type TaskDef } from './registry.ts';

/**
 * Settings › Tasks (contract: `ops/tasks/`, `ops/task-executions/`, `ops/celery/period-tasks/`):
 * Gatehouse's own tasks with their queue, cycle, success/total, state of the last run (green:
 * succeeded, yellow: running or never run, red: failed) and last run; a task's executions newest
 * first; a re-run (`POST task-executions/?from=<execution id>` or `?task_id=<name>`) and the
 * switch of a periodic task. Reading needs `ops.view_celerytask`; running and switching
 * `ops.change_celerytask` (system roles only).
 */
const VIEW = { perm: 'ops.view_celerytask' };
const CHANGE = { perm: 'ops.change_celerytask' };

function taskOf(req: FastifyRequest, name: string): TaskDef {
  const def = tasksOf(req.server).get(name);
  if (!def) throw new ApiError(404, { detail: om(req.lang, 'task_unknown', { value: name.slice(0, 128) }) });
  return def;
}

async function answer(req: FastifyRequest, def: TaskDef) {
  const db = req.db;
  const counts = await db
    .selectFrom('ops_taskexecution')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('task_name', '=', def.name)
    .groupBy('state')
    .execute();
  const last = await db
    .selectFrom('ops_taskexecution')
    .select(['state', 'date_start'])
    .where('task_name', '=', def.name)
    .orderBy('date_start', 'desc')
    .limit(1)
    .executeTakeFirst();
  const total = counts.reduce((a, c) => a + Number(c.n), 0);
  const success = Number(counts.find((c) => c.state === 'success')?.n ?? 0);
  return {
    id: def.name,
    name: def.name,
    meta: { comment: def.comment[req.lang], queue: def.queue },
    is_periodic: def.queue === 'periodic',
    enabled: await isEnabled(req.server, def.name),
    exec_cycle: def.cycle ? await def.cycle(req.lang) : '',
    summary: { success, total },
    state: !last || last.state === 'running' ? 'yellow' : last.state === 'success' ? 'green' : 'red',
    date_last_publish: last?.date_start ?? null,
  };
}

const execution = (r: {
  id: string;
  task_name: string;
  trigger: string;
  state: string;
  date_start: string;
  date_finished: string | null;
  time_cost: number;
  result: string;
  error: string;
}) => ({
  id: r.id,
  task_id: r.task_name,
  trigger: r.trigger,
  state: r.state,
  is_finished: r.state !== 'running',
  is_success: r.state === 'success',
  date_start: r.date_start,
  date_finished: r.date_finished,
  time_cost: Number(r.time_cost),
  result: JSON.parse(r.result || '{}') as unknown,
  error: r.error,
});

export function registerTaskRoutes(app: FastifyInstance): void {
  const taskShape = shape('task', {
    id: 'string',
    name: 'string',
    meta: 'json',
    is_periodic: 'boolean',
    enabled: 'boolean',
    exec_cycle: 'string',
    summary: 'json',
    state: 'string',
    date_last_publish: 'datetime',
  });
  app.get('/api/v1/ops/tasks/', { config: { ...VIEW, describe: taskShape } }, async (req) => {
    const out = [];
    for (const def of tasksOf(req.server).values()) out.push(await answer(req, def));
    return out.sort((a, b) => a.name.localeCompare(b.name));
  });
  app.get('/api/v1/ops/tasks/:name/', { config: { ...VIEW, describe: taskShape } }, async (req) =>
    answer(req, taskOf(req, (req.params as { name: string }).name)),
  );

  const execShape = shape('task', {
    id: 'string',
    task_id: 'string',
    trigger: 'string',
    state: 'string',
    is_finished: 'boolean',
    is_success: 'boolean',
    date_start: 'datetime',
    date_finished: 'datetime',
    time_cost: 'integer',
    result: 'json',
    error: 'string',
  });
  app.get('/api/v1/ops/task-executions/', { config: { ...VIEW, describe: execShape } }, async (req) => {
    const q = req.query as Record<string, string | string[] | undefined>;
    const name = typeof q.task_id === 'string' ? q.task_id : '';
    let query = req.db.selectFrom('ops_taskexecution');
    if (name) query = query.where('task_name', '=', name);
    const page = pageOf(q, 100) ?? { limit: 100, offset: 0 };
    const rows = await query.selectAll().orderBy('date_start', 'desc').limit(page.limit).offset(page.offset).execute();
    const count = Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return pageOfResults(req, page, count, rows.map(execution));
  });
  app.get('/api/v1/ops/task-executions/:id/', { config: { ...VIEW, describe: execShape } }, async (req) => {
    const row = await req.db
      .selectFrom('ops_taskexecution')
      .selectAll()
      .where('id', '=', (req.params as { id: string }).id)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, { detail: om(req.lang, 'task_unknown', { value: '' }) });
    return execution(row);
  });
  app.post('/api/v1/ops/task-executions/', { config: CHANGE }, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    let name = typeof q.task_id === 'string' ? q.task_id : '';
    if (typeof q.from === 'string') {
      const from = await req.db
        .selectFrom('ops_taskexecution')
        .select('task_name')
        .where('id', '=', q.from)
        .executeTakeFirst();
      if (!from) throw new ApiError(404, { detail: om(req.lang, 'task_unknown', { value: q.from.slice(0, 64) }) });
      name = from.task_name;
    }
    const def = taskOf(req, name);
    const id = await runTask(req.server, def.name, 'manual', { creatorId: req.user?.id, wait: false });
    return reply.code(201).send({ id, task_id: def.name, task: id });
  });

  const periodShape = shape('task', { name: 'string', enabled: 'boolean' }, ['enabled']);
  const period = '/api/v1/ops/celery/period-tasks/:name/';
  app.get(period, { config: { ...VIEW, describe: periodShape } }, async (req) => {
    const def = taskOf(req, (req.params as { name: string }).name);
    return { name: def.name, enabled: await isEnabled(req.server, def.name) };
  });
  const setEnabled = async (req: FastifyRequest) => {
    const def = taskOf(req, (req.params as { name: string }).name);
    const body = (req.body ?? {}) as { enabled?: unknown };
    if (def.queue !== 'periodic' || typeof body.enabled !== 'boolean')
      throw new ApiError(400, { enabled: [om(req.lang, 'task_not_periodic')] });
    await req.db
      .insertInto('ops_periodictask')
      .values({ name: def.name, enabled: body.enabled, date_updated: new Date().toISOString() })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({ enabled: body.enabled as boolean, date_updated: new Date().toISOString() }),
      )
      .execute();
    const row = await req.db
      .selectFrom('ops_periodictask')
      .select('enabled')
      .where('name', '=', def.name)
      .executeTakeFirst();
    return { name: def.name, enabled: toBool(row?.enabled) };
  };
  app.patch(period, { config: CHANGE }, setEnabled);
  app.put(period, { config: CHANGE }, setEnabled);
}
