import { sql } from 'kysely';
import { f } from '../../resource/fields.ts';
import type { ResourceDef, Row } from '../../resource/types.ts';
import { toBool } from '../../platform/db/schema.ts';
import { TM as M } from './gateway/gatewayError.ts';

/**
 * Sessions through the gateway (`/api/v1/terminal/sessions/`): read-only, in the contract's
 * display shape. Rows are written by GatewaySession only (created at start, finished at end).
 * `terminal` is the instance's built-in gateway `{id, name, type}`.
 */
const t = 'terminal_session';

export const sessionResource: ResourceDef = {
  model: 'session',
  app: 'terminal',
  url: '/api/v1/terminal/sessions/',
  table: t,
  label: M.model_session,
  orgScoped: true,
  defaultOrder: ['-date_start'],
  dateRangeField: 'date_start',
  fields: {
    id: f.id(),
    user: f.string(M.field_user, { readOnly: true, search: true, filter: true }),
    asset: f.string(M.field_asset, { readOnly: true, search: true, filter: true }),
    user_id: f.string(M.field_user_id, { readOnly: true, filter: true }),
    asset_id: f.string(M.field_asset_id, { readOnly: true, filter: true }),
    account: f.string(M.field_account, { readOnly: true, search: true, filter: true }),
    account_id: f.string(M.field_account_id, { readOnly: true, filter: true }),
    protocol: f.string(M.field_protocol, { readOnly: true, search: true, filter: true }),
    type: f.choice(
      M.field_type,
      [
        { value: 'normal', label: M.type_normal },
        { value: 'tunnel', label: M.type_tunnel },
        { value: 'command', label: M.type_command },
        { value: 'sftp', label: M.type_sftp },
      ],
      { readOnly: true, filter: true },
    ),
    login_from: f.choice(
      M.field_login_from,
      [
        { value: 'ST', label: M.login_from_ST },
        { value: 'RT', label: M.login_from_RT },
        { value: 'WT', label: M.login_from_WT },
        { value: 'DT', label: M.login_from_DT },
      ],
      { readOnly: true, filter: true, search: true },
    ),
    remote_addr: f.string(M.field_remote_addr, { readOnly: true, search: true, filter: true }),
    is_success: f.bool(M.field_is_success, { readOnly: true, filter: true }),
    is_finished: f.bool(M.field_is_finished, { readOnly: true, filter: true, order: true }),
    has_replay: f.bool(M.field_has_replay, { readOnly: true }),
    has_command: f.bool(M.field_has_command, { readOnly: true }),
    date_start: f.datetime(M.field_date_start, { readOnly: true, order: true }),
    date_end: f.datetime(M.field_date_end, { readOnly: true, order: true }),
    comment: f.text(M.field_comment, { readOnly: true }),
    terminal_display: f.computed('string', M.field_terminal_display, (r) => String(r._terminal_name ?? '')),
    is_locked: f.bool(M.field_is_locked, { readOnly: true }),
    command_amount: f.int(M.field_command_amount, { readOnly: true, order: true }),
    org_id: f.string(M.field_org_id, { readOnly: true }),
    terminal: f.computed(
      'json',
      M.field_terminal,
      (r) => (r.terminal_id ? { id: r.terminal_id, name: String(r._terminal_name ?? ''), type: 'gatehouse' } : null),
      {
        column: 'terminal_id',
        filter: (q, value, ctx) =>
          q.where((eb) =>
            eb.or([
              eb(sql.ref(`${t}.terminal_id`), '=', value),
              eb(
                sql.ref(`${t}.terminal_id`),
                'in',
                ctx.db.selectFrom('terminal_terminal').select('id').where('name', '=', value),
              ),
            ]),
          ),
      },
    ),
    can_replay: f.computed('boolean', M.field_can_replay, (r) => toBool(r.has_replay as number)),
    // The contract's rule with the built-in gateway as the terminal: a running normal session not
    // from an RDP client can be watched (modules/terminal/monitorSocket.ts).
    can_join: f.computed(
      'boolean',
      M.field_can_join,
      (r) => !toBool(r.is_finished as number) && r.login_from !== 'RT' && r.type === 'normal',
    ),
    can_terminate: f.computed('boolean', M.field_can_terminate, (r) => !toBool(r.is_finished as number)),
  },
  async prepare(rows: Row[], ctx) {
    const ids = [...new Set(rows.map((r) => String(r.terminal_id)).filter(Boolean))];
    if (!ids.length) return;
    const names = new Map(
      (await ctx.db.selectFrom('terminal_terminal').select(['id', 'name']).where('id', 'in', ids).execute()).map(
        (x) => [x.id, x.name],
      ),
    );
    for (const r of rows) r._terminal_name = names.get(String(r.terminal_id)) ?? '';
  },
};

/**
 * `my-sessions/` (the workbench home's recent sessions): the caller's own sessions, in the current
 * org as every session list (all orgs only in the global one, which the caller must be allowed to
 * enter), for any signed-in user. The scope is by user id, never by the `user` label, which another
 * user's display name could imitate; the request's filters only narrow it.
 */
export const mySessionResource: ResourceDef = {
  ...sessionResource,
  url: '/api/v1/terminal/my-sessions/',
  scope: (q, ctx) => q.where(sql.ref(`${t}.user_id`), '=', ctx.req.user?.id ?? ''),
};
