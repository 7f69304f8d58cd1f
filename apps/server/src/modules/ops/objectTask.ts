import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { can } from '../../http/permissions.ts';
import { om } from './opsMessages.ts';
import { openTaskLog, type TaskLogWriter } from './taskLog.ts';
import { shape } from '../../resource/describe.ts';

/**
 * A background task over a list of objects (the connectivity tests of assets and of accounts): it
 * starts after the answer and handles one object at a time; its state lives in the cache (shared
 * by every instance) for a day and is read back through `GET /api/v1/ops/celery/task/<id>/` by
 * whoever started it; its progress goes to the task log.
 */
export interface ObjectTaskState<R> {
  id: string;
  name: string;
  state: 'PENDING' | 'STARTED' | 'SUCCESS' | 'FAILURE';
  user_id: string;
  total: number;
  done: number;
  results: R[];
  date_start: string;
  date_finished: string | null;
}

const TASK_TTL = 24 * 3600;
const taskKey = (id: string) => `gh:task:${id}`;

/** What a task does with one object: its result, or undefined when the object is gone. */
export type ObjectStep<R> = (id: string, log: TaskLogWriter) => Promise<R | undefined>;

async function run<R>(
  app: FastifyInstance,
  task: ObjectTaskState<R>,
  ids: string[],
  what: string,
  step: ObjectStep<R>,
  log: TaskLogWriter,
) {
  const { cache } = app.deps;
  const save = () => cache.set(taskKey(task.id), task, TASK_TTL);
  task.state = 'STARTED';
  await save();
  await log.write(`>>> Task ${task.name} started: ${ids.length} ${what}`);
  try {
    for (const id of ids) {
      const r = await step(id, log);
      task.done += 1;
      if (r) task.results.push(r);
      await save();
    }
    task.state = 'SUCCESS';
  } catch (e) {
    task.state = 'FAILURE';
    await log.write(`!!! ${(e as Error).message}`);
  }
  task.date_finished = new Date().toISOString();
  await save();
  app.log.info(
    { task: task.id, name: task.name, state: task.state, done: task.done, total: task.total },
    'task finished',
  );
  await log.write(`>>> Task ${task.state}: ${task.done}/${task.total}`);
  await log.end();
}

/** Starts `step` over `ids` for the caller; answers the task's id at once. `what` names the objects in the log. */
export async function startObjectTask<R>(
  req: FastifyRequest,
  name: string,
  ids: string[],
  what: string,
  step: ObjectStep<R>,
): Promise<{ task: string }> {
  const task: ObjectTaskState<R> = {
    id: randomUUID(),
    name,
    state: 'PENDING',
    user_id: req.user!.id,
    total: ids.length,
    done: 0,
    results: [],
    date_start: new Date().toISOString(),
    date_finished: null,
  };
  await req.server.deps.cache.set(taskKey(task.id), task, TASK_TTL);
  // The log exists before the answer: the console opens it as soon as it has the task's id.
  const log = await openTaskLog(req.server.deps.cache, task.id, task.user_id);
  req.log.info({ task: task.id, name, total: ids.length }, 'task started');
  void run(req.server, task, ids, what, step, log);
  return { task: task.id };
}

export function registerObjectTaskRoute(app: FastifyInstance): void {
  // Self-service: the task's starter reads it (others need ops.view_taskmonitor).
  const describe = shape('task', {
    id: 'string',
    name: 'string',
    state: 'string',
    total: 'integer',
    done: 'integer',
    results: 'list',
    date_start: 'datetime',
    date_finished: 'datetime',
  });
  app.get<{ Params: { id: string } }>('/api/v1/ops/celery/task/:id/', { config: { describe } }, async (req) => {
    const task = await req.server.deps.cache.get<ObjectTaskState<unknown>>(taskKey(req.params.id));
    if (!task || (task.user_id !== req.user!.id && !(await can(req, 'ops.view_taskmonitor'))))
      throw new ApiError(404, { detail: om(req.lang, 'task_not_found') });
    return task;
  });
}
