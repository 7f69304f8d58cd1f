import { f } from '../../resource/fields.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { TM as M } from './gateway/gatewayError.ts';
import { escapeControls } from '../../platform/text/controlChars.ts';

/**
 * File transfers through the gateway (`/api/v1/audits/ftp-logs/`): read-only here; rows come
 * from the gateway's SFTP paths (sftp/remoteRoot.ts: web file manager, native SFTP).
 */
const OPERATES = ['mkdir', 'rmdir', 'delete', 'upload', 'rename', 'symlink', 'download', 'rename_dir'] as const;

export const ftpLogResource: ResourceDef = {
  model: 'ftplog',
  app: 'audits',
  url: '/api/v1/audits/ftp-logs/',
  table: 'audits_ftplog',
  label: M.model_ftplog,
  orgScoped: true,
  defaultOrder: ['-date_start'],
  dateRangeField: 'date_start',
  fields: {
    id: f.id(),
    user: f.string(M.field_user, { readOnly: true, search: true, filter: true }),
    remote_addr: f.string(M.field_remote_addr, { readOnly: true }),
    asset: f.string(M.field_asset, { readOnly: true, search: true, filter: true }),
    account: f.string(M.field_account, { readOnly: true, search: true, filter: true }),
    operate: f.choice(
      M.field_operate,
      OPERATES.map((v) => ({ value: v, label: M[`operate_${v}`] })),
      { readOnly: true, filter: true },
    ),
    // Stored as received; shown and exported with control characters escaped (a name sent over
    // SFTP may hold ESC or BEL: an export shown in a terminal must not run them).
    filename: f.string(M.field_filename, {
      readOnly: true,
      search: true,
      filter: true,
      out: (v) => (typeof v === 'string' ? escapeControls(v) : v),
    }),
    date_start: f.datetime(M.field_date_start, { readOnly: true, order: true }),
    is_success: f.bool(M.field_is_success, { readOnly: true, filter: true }),
    has_file: f.bool(M.field_has_file, { readOnly: true }),
    session: f.string(M.field_session, { readOnly: true, column: 'session_id' }),
  },
};
