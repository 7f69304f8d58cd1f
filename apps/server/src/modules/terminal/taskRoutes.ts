import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { tm } from './gateway/gatewayError.ts';
import { gatewayOf } from './gatewayInstance.ts';

/**
 * Live control of sessions (`terminal.terminate_session`): `tasks/kill-session/` ends sessions,
 * `tasks/toggle-lock-session/` pauses or resumes their input. Only running sessions of the
 * current org (any org from the global one) are acted on; the order goes out on the bus, so the
 * instance holding each session acts on it. The answer lists the ids acted on.
 */
async function runningIds(req: FastifyRequest, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  let q = req.db
    .selectFrom('terminal_session')
    .select('id')
    .where('id', 'in', ids.slice(0, 1000))
    .where('is_finished', '=', false);
  if (req.org.id !== ROOT_ORG_ID) q = q.where('org_id', '=', req.org.id);
  return (await q.execute()).map((r) => r.id);
}

export function registerTaskRoutes(app: FastifyInstance): void {
  const perm = 'terminal.terminate_session';
  app.post('/api/v1/terminal/tasks/kill-session/', { config: { perm } }, async (req) => {
    const body = req.body;
    if (!Array.isArray(body) || !body.length || body.some((x) => typeof x !== 'string'))
      throw new ApiError(400, { error: tm(req.lang, 'session_ids_required') });
    const ids = await runningIds(req, body as string[]);
    if (ids.length) await gatewayOf(app).registry.kill(ids, req.user!.username);
    return { ok: ids };
  });
  app.post('/api/v1/terminal/tasks/toggle-lock-session/', { config: { perm } }, async (req) => {
    const body = (req.body ?? {}) as { session_id?: unknown; task_name?: unknown };
    if (typeof body.session_id !== 'string' || !body.session_id)
      throw new ApiError(400, { session_id: [tm(req.lang, 'session_id_required')] });
    if (body.task_name !== 'lock_session' && body.task_name !== 'unlock_session')
      throw new ApiError(400, { task_name: [tm(req.lang, 'task_name_invalid')] });
    const ids = await runningIds(req, [body.session_id]);
    if (!ids.length) throw new ApiError(404, { detail: tm(req.lang, 'session_not_found') });
    const locked = body.task_name === 'lock_session';
    await req.db.updateTable('terminal_session').set({ is_locked: locked }).where('id', 'in', ids).execute();
    await gatewayOf(app).registry.lock(ids, locked, req.user!.username);
    return { ok: ids };
  });
}
