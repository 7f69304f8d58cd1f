import { f } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { TM as M } from './gateway/gatewayError.ts';

/**
 * Join records (`/api/v1/terminal/session-join-records/`): who watched or joined a running
 * session, written by the monitor socket (monitorSocket.ts) and by joining a sharing
 * (sharing/sharingRoutes.ts, which also answers POST here). Read-only here, org-scoped, read
 * with `terminal.view_session` (they are part of the session's detail); `session` filters by id.
 */
const t = 'terminal_sessionjoinrecord';

export const joinRecordResource: ResourceDef = {
  model: 'sessionjoinrecord',
  app: 'terminal',
  url: '/api/v1/terminal/session-join-records/',
  table: t,
  label: M.model_sessionjoinrecord,
  orgScoped: true,
  defaultOrder: ['-date_joined'],
  dateRangeField: 'date_joined',
  fields: {
    id: f.id(),
    session: f.string(M.field_session, { readOnly: true, filter: true, column: 'session_id' }),
    joiner: f.string(M.field_joiner, { readOnly: true, filter: true, column: 'joiner_id' }),
    joiner_display: f.string(M.field_joiner_display, { readOnly: true, search: true }),
    verify_code: f.string(M.field_verify_code, { readOnly: true }),
    action_permission: f.choice(
      M.field_action_permission,
      [
        { value: 'readonly', label: M.action_permission_readonly },
        { value: 'writable', label: M.action_permission_writable },
      ],
      { readOnly: true, filter: true },
    ),
    remote_addr: f.string(M.field_remote_addr, { readOnly: true, search: true }),
    login_from: f.choice(
      M.field_login_from,
      [
        { value: 'ST', label: M.login_from_ST },
        { value: 'RT', label: M.login_from_RT },
        { value: 'WT', label: M.login_from_WT },
        { value: 'DT', label: M.login_from_DT },
      ],
      { readOnly: true },
    ),
    is_success: f.bool(M.field_is_success, { readOnly: true, filter: true }),
    reason: f.string(M.field_reason, { readOnly: true }),
    is_finished: f.bool(M.field_is_finished, { readOnly: true, filter: true }),
    date_joined: f.datetime(M.field_date_joined, { readOnly: true, order: true }),
    date_left: f.datetime(M.field_date_left, { readOnly: true }),
    created_by: f.string(M.field_created_by, { readOnly: true }),
    date_created: f.datetime(M.field_date_created, { readOnly: true }),
    date_updated: f.datetime(M.field_date_updated, { readOnly: true }),
    sharing: f.string(M.field_sharing, { readOnly: true, filter: true, column: 'sharing_id' }),
  },
};
