import { Checkbox, DatePicker, Descriptions, Select } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../resource/values.ts';
import type { Ticket } from './ticketsApi.ts';

/** Asset request fields an approver may change on the final step (sent with the approval). */
export interface GrantEdits {
  apply_accounts?: string[];
  apply_actions?: string[];
  apply_date_start?: string;
  apply_date_expired?: string;
}

export const ACTIONS = ['connect', 'upload', 'download', 'delete', 'copy', 'paste'] as const;

type Named = { id: string; name: string };
const names = (v: unknown) => ((v as Named[] | null) ?? []).map((x) => x.name).join(', ') || '-';

/**
 * What the ticket asks for, per type: the assets request (editable by the approver of the final
 * step), the sign-in, the connection or the command under review.
 */
export function TicketRequestCard({
  ticket,
  edits,
  onEdit,
}: {
  ticket: Ticket;
  edits?: GrantEdits;
  onEdit?: (e: GrantEdits) => void;
}) {
  const { t, i18n } = useTranslation();
  const date = (v: unknown) => (v ? formatDate(v, i18n.language) : '-');
  const f = (key: string) => t(`tickets.request.${key}`);
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
  const type = ticket.type.value;
  if (type === 'apply_asset') {
    const actions = (ticket.apply_actions as { value: string; label: string }[]) ?? [];
    const accounts = (ticket.apply_accounts as string[]) ?? [];
    const current = {
      apply_accounts: edits?.apply_accounts ?? accounts,
      apply_actions: edits?.apply_actions ?? actions.map((a) => a.value),
      apply_date_start: edits?.apply_date_start ?? String(ticket.apply_date_start),
      apply_date_expired: edits?.apply_date_expired ?? String(ticket.apply_date_expired),
    };
    return (
      <Descriptions column={1} bordered size="small" data-testid="ticket-request">
        <Descriptions.Item label={f('nodes')}>{names(ticket.apply_nodes)}</Descriptions.Item>
        <Descriptions.Item label={f('assets')}>{names(ticket.apply_assets)}</Descriptions.Item>
        <Descriptions.Item label={f('accounts')}>
          {onEdit ? (
            <Select
              mode="tags"
              style={{ width: '100%' }}
              value={current.apply_accounts}
              onChange={(v) => onEdit({ ...current, apply_accounts: v })}
              data-testid="edit-accounts"
            />
          ) : (
            accounts.join(', ')
          )}
        </Descriptions.Item>
        <Descriptions.Item label={f('actions')}>
          {onEdit ? (
            <Checkbox.Group
              value={current.apply_actions}
              onChange={(v) => onEdit({ ...current, apply_actions: v as string[] })}
              options={ACTIONS.map((a) => ({ value: a, label: t(`tickets.actions.${a}`) }))}
            />
          ) : (
            actions.map((a) => a.label).join(', ')
          )}
        </Descriptions.Item>
        <Descriptions.Item label={f('dates')}>
          {onEdit ? (
            <DatePicker.RangePicker
              showTime
              value={[dayjs(current.apply_date_start), dayjs(current.apply_date_expired)]}
              onChange={(v) =>
                v?.[0] &&
                v[1] &&
                onEdit({ ...current, apply_date_start: v[0].toISOString(), apply_date_expired: v[1].toISOString() })
              }
            />
          ) : (
            `${date(ticket.apply_date_start)} ~ ${date(ticket.apply_date_expired)}`
          )}
        </Descriptions.Item>
        <Descriptions.Item label={f('permissionName')}>{text(ticket.apply_permission_name)}</Descriptions.Item>
      </Descriptions>
    );
  }
  const rows: [string, unknown][] =
    type === 'login_confirm'
      ? [
          ['loginIp', ticket.apply_login_ip],
          ['loginCity', ticket.apply_login_city],
          ['loginDatetime', date(ticket.apply_login_datetime)],
        ]
      : type === 'login_asset_confirm'
        ? [
            ['loginUser', ticket.apply_login_user],
            ['loginAsset', ticket.apply_login_asset],
            ['loginAccount', ticket.apply_login_account],
          ]
        : type === 'command_confirm'
          ? [
              ['runUser', ticket.apply_run_user],
              ['runAsset', ticket.apply_run_asset],
              ['runAccount', ticket.apply_run_account],
              ['runCommand', ticket.apply_run_command],
              ['fromRule', (ticket.apply_from_cmd_filter_acl as Named | null)?.name],
            ]
          : [];
  return (
    <Descriptions column={1} bordered size="small" data-testid="ticket-request">
      {rows.map(([k, v]) => (
        <Descriptions.Item key={k} label={f(k)}>
          {k === 'runCommand' ? <code>{text(v)}</code> : text(v)}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
