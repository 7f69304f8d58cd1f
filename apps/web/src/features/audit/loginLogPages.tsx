import { Tag } from 'antd';
import { DetailCard } from '../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../resource/formatters.tsx';
import type { ResourcePagesConfig } from '../../resource/resourceRoute.tsx';
import { loginLogRoute } from './loginLogRoute.tsx';
import { AUDIT_DETAIL, AUDIT_LIST } from './auditList.ts';

/** Success in green, failure in red, as the audit lists show it. */
const status: CellFormatter = ({ value }) => {
  const v = value as { value?: boolean; label?: string } | null;
  return v ? <Tag color={v.value ? 'success' : 'error'}>{v.label}</Tag> : '-';
};

const FIELDS = [
  'username',
  'type',
  'backend_display',
  'ip',
  'city',
  'user_agent',
  'mfa',
  'reason_display',
  'status',
  'datetime',
];

/**
 * Login logs: read-only, a date range (last 7 days by default), no
 * left-side actions and no import; the detail is one card.
 */
export const loginLogPages: ResourcePagesConfig = {
  ...loginLogRoute,
  list: {
    ...AUDIT_LIST,
    name: 'LoginLogList',
    columns: [...FIELDS, 'actions'],
    columnsShow: {
      default: ['username', 'type', 'backend_display', 'ip', 'city', 'mfa', 'reason_display', 'status', 'datetime'],
      min: ['username', 'datetime'],
    },
    columnsMeta: {
      status: { formatter: status },
      reason_display: { label: 'audit.field.reason' },
      actions: { has: false },
    },
    linkColumn: 'username',
  },
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'LoginLogDetail',
        title: 'audit.tab.Detail',
        render: (log, { meta }) => (
          <DetailCard
            title="audit.card.basic"
            object={log}
            meta={meta}
            fields={['id', ...FIELDS]}
            formatters={{ status }}
          />
        ),
      },
    ],
  },
};
