import { sql } from 'kysely';
import { f } from '../../resource/fields.ts';
import type { AnyQuery, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { BACKEND_LABELS } from './loginLogLabels.ts';
import { AL } from './auditLogsText.ts';
import { membersOnly } from './memberScope.ts';

/**
 * `user-sessions/`: the web sign-ins still alive (`auth_session` rows not expired), of the current
 * org's members outside the global org. The id is the session row's id, the SHA-256 of the
 * cookie: it names a session without being one. Offline is `userSessionRoutes.ts`.
 */
const members = membersOnly('auth_session.user_id');

/**
 * Sessions the server would still accept (`http/sessionLimits.ts`): not expired, active within
 * `SECURITY_MAX_IDLE_TIME` minutes and signed in less than `SECURITY_MAX_SESSION_TIME` hours ago
 * (0 = no limit). The settings are those the caller's identification has just read.
 */
function alive(q: AnyQuery, ctx: ResourceCtx): AnyQuery {
  const { settings } = ctx.req.server.deps;
  const now = Date.now();
  let r = q.where(sql.ref('auth_session.expire_at'), '>', new Date(now).toISOString());
  const idle = Number(settings.cached('SECURITY_MAX_IDLE_TIME')) || 0;
  if (idle > 0) r = r.where(sql.ref('auth_session.last_active'), '>', new Date(now - idle * 60_000).toISOString());
  const hours = Number(settings.cached('SECURITY_MAX_SESSION_TIME')) || 0;
  if (hours > 0) r = r.where(sql.ref('auth_session.date_created'), '>', new Date(now - hours * 3600_000).toISOString());
  return r;
}

export const userSessionResource: ResourceDef = {
  model: 'usersession',
  app: 'audits',
  url: '/api/v1/audits/user-sessions/',
  table: 'auth_session',
  label: AL.user_session,
  orgScoped: false,
  defaultOrder: ['-date_created'],
  fields: {
    id: f.id(),
    type: f.choice(
      AL.login_type,
      [
        { value: 'W', label: AL.web },
        { value: 'T', label: AL.terminal },
        { value: 'U', label: AL.unknown },
      ],
      { readOnly: true, filter: true },
    ),
    ip: f.string(AL.ip, { readOnly: true, search: true, filter: true }),
    city: f.string(AL.city, { readOnly: true, search: true, filter: true }),
    user_agent: f.string(AL.user_agent, { readOnly: true }),
    user: f.fk(AL.user, { table: 'users_user' }, { readOnly: true }),
    is_current_user_session: f.computed(
      'boolean',
      AL.is_current_user_session,
      (r, ctx) => r.id === ctx.req.session?.id,
    ),
    backend: f.string(AL.backend, { readOnly: true }),
    backend_display: f.computed(
      'string',
      AL.backend,
      (r, ctx) => BACKEND_LABELS[String(r.backend)]?.[ctx.req.lang] ?? String(r.backend ?? ''),
    ),
    date_created: f.datetime(AL.date_created, { readOnly: true, order: true }),
    date_expired: f.datetime(AL.date_expired, { readOnly: true, column: 'expire_at', order: true }),
  },
  scope: (q, ctx) => members(alive(q, ctx), ctx),
};
