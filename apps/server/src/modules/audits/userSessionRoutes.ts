import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
import { baseQuery } from '../../resource/query.ts';
import type { ResourceCtx } from '../../resource/types.ts';
import { guardUserTarget } from '../rbac/userGuard.ts';
import { AL } from './auditLogsText.ts';
import { userSessionResource } from './userSessionResource.ts';

const OFFLINE_PERM = 'audits.offline_usersession';
const MAX_IDS = 500;

/**
 * `user-sessions/` (audits.view_usersession) and `POST user-sessions/offline/ {ids}`
 * (audits.offline_usersession): ends the named web sign-ins among those the caller may list,
 * never the caller's own, and only of users the caller may act on (`guardUserTarget`: an org
 * admin does not sign out a superuser or a member of an org they do not administer). The next
 * request of an ended session is anonymous (`http/identify.ts` finds no row).
 */
export function registerUserSessionRoutes(app: FastifyInstance): void {
  registerReadOnly(app, userSessionResource, 'audits.view_usersession');
  app.post(`${userSessionResource.url}offline/`, { config: { perm: OFFLINE_PERM } }, async (req) => {
    const ids = (req.body as { ids?: unknown } | undefined)?.ids;
    if (!Array.isArray(ids) || !ids.length || ids.length > MAX_IDS || !ids.every((i) => typeof i === 'string'))
      throw new ApiError(400, { ids: [AL.ids_required[req.lang]] });
    if (req.session && ids.includes(req.session.id)) throw new ApiError(400, { ids: [AL.offline_own[req.lang]] });
    const ctx: ResourceCtx = { req, db: req.db };
    const rows = (await baseQuery(userSessionResource, ctx)
      .where(sql.ref('auth_session.id'), 'in', ids as string[])
      .execute()) as { id: string; user_id: string }[];
    for (const userId of new Set(rows.map((r) => r.user_id))) await guardUserTarget(req, userId, OFFLINE_PERM);
    if (rows.length)
      await req.db
        .deleteFrom('auth_session')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    return { ok: true, count: rows.length };
  });
}
