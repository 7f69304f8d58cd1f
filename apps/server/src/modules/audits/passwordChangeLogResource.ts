import { f } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { AL } from './auditLogsText.ts';
import { membersOnly } from './memberScope.ts';

/** `password-change-logs/`: read-only, written by `passwordChangeLog.ts`; org members outside the global org. */
export const passwordChangeLogResource: ResourceDef = {
  model: 'passwordchangelog',
  app: 'audits',
  url: '/api/v1/audits/password-change-logs/',
  table: 'audits_passwordchangelog',
  label: AL.password_change_log,
  orgScoped: false,
  defaultOrder: ['-datetime'],
  dateRangeField: 'datetime',
  fields: {
    id: f.id(),
    user: f.string(AL.user, { readOnly: true, search: true, filter: true }),
    change_by: f.string(AL.change_by, { readOnly: true, search: true, filter: true }),
    remote_addr: f.string(AL.remote_addr, { readOnly: true, search: true, filter: true }),
    datetime: f.datetime(AL.datetime, { readOnly: true, order: true }),
  },
  scope: membersOnly('audits_passwordchangelog.user_id'),
};
