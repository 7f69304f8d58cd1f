import { randomUUID } from 'node:crypto';
import { t } from '../../http/messages.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { can } from '../../http/permissions.ts';
import { am } from './assetMessages.ts';
import { probe, type ProbeResult } from './connectivity.ts';
import { openTaskLog, type TaskLogWriter } from '../ops/taskLog.ts';

/**
 * Background tasks of assets: connectivity tests run after the answer;
 * their state lives in the cache (shared by every instance) for a day and is read back through
 * `GET /api/v1/ops/celery/task/<id>/` by whoever started it.
 */
export interface TaskState {
  id: string;
  name: string;
  state: 'PENDING' | 'STARTED' | 'SUCCESS' | 'FAILURE';
  user_id: string;
  total: number;
  done: number;
  results: { asset: string; name: string; connectivity: string; protocols: ProbeResult[] }[];
  date_start: string;
  date_finished: string | null;
}

export const TASK_TTL = 24 * 3600;
const TTL = TASK_TTL;
/** Where a task's state lives in the cache (also for the account tasks of modules/accounts). */
export const taskKey = (id: string) => `gh:task:${id}`;
const key = taskKey;

async function runTest(app: FastifyInstance, task: TaskState, assetIds: string[], log: TaskLogWriter): Promise<void> {
  const { cache } = app.deps;
  const db = app.deps.database.db;
  task.state = 'STARTED';
  await cache.set(key(task.id), task, TTL);
  await log.write(`>>> Task ${task.name} started: ${assetIds.length} asset(s)`);
  try {
    for (const id of assetIds) {
      const a = await db
        .selectFrom('assets_asset')
        .select(['id', 'name', 'address'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!a) continue;
      const protocols = await db
        .selectFrom('assets_protocol')
        .select(['name', 'port'])
        .where('asset_id', '=', id)
        .execute();
      await log.write(`>>> ${a.name} (${a.address})`);
      const r = await probe(a.address, protocols);
      for (const p of r.results)
        await log.write(`    ${p.name}/${p.port}: ${p.ok ? 'ok' : `failed${p.error ? ` (${p.error})` : ''}`}`);
      await log.write(`    connectivity: ${r.connectivity}`);
      await db
        .updateTable('assets_asset')
        .set({ connectivity: r.connectivity, date_verified: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
      task.done += 1;
      task.results.push({ asset: a.id, name: a.name, connectivity: r.connectivity, protocols: r.results });
      await cache.set(key(task.id), task, TTL);
    }
    task.state = 'SUCCESS';
  } catch (e) {
    task.state = 'FAILURE';
    await log.write(`!!! ${(e as Error).message}`);
  }
  task.date_finished = new Date().toISOString();
  await cache.set(key(task.id), task, TTL);
  await log.write(`>>> Task ${task.state}: ${task.done}/${task.total}`);
  await log.end();
}

export async function visibleAssetIds(req: FastifyRequest, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  let q = req.db.selectFrom('assets_asset').select('id').where('id', 'in', ids);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  const found = new Set((await q.execute()).map((r) => r.id));
  return [...new Set(ids)].filter((id) => found.has(id));
}

export async function start(req: FastifyRequest, ids: string[], action: unknown): Promise<{ task: string }> {
  if (action === 'refresh') throw new ApiError(400, { error: am(req.lang, 'not_supported') });
  if (action !== 'test')
    throw new ApiError(400, { action: [am(req.lang, 'action_invalid', { value: String(action) })] });
  const task: TaskState = {
    id: randomUUID(),
    name: 'test-assets-connectivity',
    state: 'PENDING',
    user_id: req.user!.id,
    total: ids.length,
    done: 0,
    results: [],
    date_start: new Date().toISOString(),
    date_finished: null,
  };
  await req.server.deps.cache.set(key(task.id), task, TTL);
  const log = await openTaskLog(req.server.deps.cache, task.id, task.user_id);
  void runTest(req.server, task, ids, log);
  return { task: task.id };
}

export function registerAssetTaskRoutes(app: FastifyInstance): void {
  const perm = { config: { perm: 'assets.test_assetconnectivity' } };
  app.post<{ Params: { id: string } }>('/api/v1/assets/assets/:id/tasks/', perm, async (req) => {
    const ids = await visibleAssetIds(req, [req.params.id]);
    if (!ids.length) throw new ApiError(404, { detail: t(req.lang, 'not_found') });
    return start(req, ids, (req.body as { action?: unknown } | undefined)?.action);
  });
  app.post('/api/v1/assets/assets/tasks/', perm, async (req) => {
    const body = (req.body ?? {}) as { action?: unknown; assets?: unknown };
    const ids = Array.isArray(body.assets) ? await visibleAssetIds(req, body.assets.map(String)) : [];
    return start(req, ids, body.action);
  });
  // Self-service: the task's starter reads it (others need ops.view_taskmonitor).
  app.get<{ Params: { id: string } }>('/api/v1/ops/celery/task/:id/', async (req) => {
    const task = await req.server.deps.cache.get<TaskState>(key(req.params.id));
    if (!req.user) throw new ApiError(401, { detail: t(req.lang, 'not_authenticated') });
    if (!task || (task.user_id !== req.user.id && !(await can(req, 'ops.view_taskmonitor'))))
      throw new ApiError(404, { detail: am(req.lang, 'task_not_found') });
    return task;
  });
}
