import { sql } from 'kysely';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { parseBool } from '../../resource/coerce.ts';
import { f } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { BACKEND_LABELS, reasonLabel } from './loginLogLabels.ts';
import { orgMemberIds } from '../rbac/orgMembers.ts';
import { catalogue } from '../../platform/i18n/catalogue.ts';
import type auditsMessages from '../../platform/i18n/locales/en/audits.json';
const M = catalogue<typeof auditsMessages>('audits');

/**
 * Login logs (`login-logs/`, `my-login-logs/`): read-only. Outside the global
 * org only the logs of the current org's members are shown; `my-login-logs/` narrows to the
 * caller's username (see loginLogRoutes.ts).
 */
export const loginLogResource: ResourceDef = {
  model: 'userloginlog',
  app: 'audits',
  url: '/api/v1/audits/login-logs/',
  table: 'audits_userloginlog',
  label: M.user_login_log,
  orgScoped: false,
  defaultOrder: ['-datetime'],
  dateRangeField: 'datetime',
  fields: {
    id: f.id(),
    username: f.string(M.username, { readOnly: true, search: true, filter: true }),
    type: f.choice(
      M.login_type,
      [
        { value: 'W', label: M.web },
        { value: 'T', label: M.terminal },
        { value: 'U', label: M.unknown },
      ],
      { readOnly: true, filter: true },
    ),
    ip: f.string(M.login_ip, { readOnly: true, search: true, filter: true }),
    city: f.string(M.login_city, { readOnly: true, search: true, filter: true }),
    user_agent: f.string(M.user_agent, { readOnly: true }),
    mfa: f.choice(
      M.mfa,
      [
        { value: 0, label: M.disabled },
        { value: 1, label: M.enabled },
        { value: 2, label: M.not_set },
      ],
      { readOnly: true, filter: true },
    ),
    reason: f.string(M.reason, { readOnly: true }),
    reason_display: f.computed('string', M.reason_display, (r, ctx) =>
      reasonLabel(String(r.reason ?? ''), ctx.req.lang),
    ),
    backend: f.string(M.authentication_backend, { readOnly: true }),
    backend_display: f.computed(
      'string',
      M.authentication_backend,
      (r, ctx) => BACKEND_LABELS[String(r.backend)]?.[ctx.req.lang] ?? String(r.backend ?? ''),
    ),
    status: f.computed(
      'labeled_choice',
      M.status,
      (r, ctx) => {
        const ok = r.status === true || r.status === 1;
        return {
          value: ok,
          label: (ok ? M.success : M.failed)[ctx.req.lang],
        };
      },
      {
        column: 'status',
        choices: [
          { value: true, label: M.success },
          { value: false, label: M.failed },
        ],
        filter: (q, value) => {
          const v = parseBool(value);
          return v === undefined
            ? q.where(sql.lit(false))
            : q.where('audits_userloginlog.status' as never, '=', v as never);
        },
      },
    ),
    datetime: f.datetime(M.date_login, { readOnly: true, order: true }),
  },
  scope(q, ctx) {
    if (ctx.req.org.id === ROOT_ORG_ID) return q;
    const members = ctx.db
      .selectFrom('users_user')
      .select('username')
      .where('id', 'in', orgMemberIds(ctx.db, ctx.req.org.id));
    return q.where(sql.ref('audits_userloginlog.username'), 'in', members);
  },
};
