import type { FastifyInstance } from 'fastify';
import { hasPermission } from '@gatehouse/contract';
import { effectivePerms } from '../../../http/rbac.ts';
import { toBool } from '../../../platform/db/schema.ts';
import { tm } from '../gateway/gatewayError.ts';
import { shareable } from './sharingRules.ts';

/**
 * `POST /api/v1/terminal/sessions/join/validate/ {user_id, session_id}` → `{ok, msg}`: whether the
 * user may watch the running session (what a component asks before letting someone join it): the
 * session joinable (`shareable`) and the user active with `terminal.monitor_session` in the
 * session's org. The caller needs `terminal.validate_sessionactionperm`; a session of another org
 * than the caller's current one (any org from the root org) answers as an unknown one.
 */
export function registerJoinValidateRoute(app: FastifyInstance): void {
  app.post(
    '/api/v1/terminal/sessions/join/validate/',
    { config: { perm: 'terminal.validate_sessionactionperm' } },
    async (req) => {
      const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const userId = typeof b.user_id === 'string' ? b.user_id.slice(0, 64) : '';
      const sessionId = typeof b.session_id === 'string' ? b.session_id.slice(0, 64) : '';
      let q = req.db.selectFrom('terminal_session').selectAll().where('id', '=', sessionId);
      if (!req.org.is_root) q = q.where('org_id', '=', req.org.id);
      const session = sessionId ? await q.executeTakeFirst() : undefined;
      if (!session || !shareable(session)) return { ok: false, msg: tm(req.lang, 'monitor_not_running') };
      const user = userId
        ? await req.db.selectFrom('users_user').select(['id', 'is_active']).where('id', '=', userId).executeTakeFirst()
        : undefined;
      if (!user || !toBool(user.is_active)) return { ok: false, msg: tm(req.lang, 'monitor_denied') };
      const eff = await effectivePerms(req.db, user.id, session.org_id);
      const ok = eff.isSuperuser || hasPermission(eff.perms, ['terminal.view_session', 'terminal.monitor_session']);
      return { ok, msg: ok ? '' : tm(req.lang, 'monitor_denied') };
    },
  );
}
