import { DetailCard } from '../../resource/DetailCard.tsx';
import type { ResourcePageParts } from '../../resource/resourceRoute.tsx';
import { AUDIT_DETAIL, AUDIT_LIST } from './auditList.ts';

const FIELDS = ['user', 'change_by', 'remote_addr', 'datetime'];

export const passwordChangeLogPages: ResourcePageParts = {
  list: {
    ...AUDIT_LIST,
    name: 'PasswordChangeLogList',
    columns: [...FIELDS, 'actions'],
    columnsShow: { default: FIELDS, min: ['user', 'datetime'] },
    columnsMeta: { actions: { has: false } },
    linkColumn: 'user',
  },
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'PasswordChangeLogDetail',
        title: 'audit.tab.Detail',
        render: (log, { meta }) => (
          <DetailCard title="audit.card.basic" object={log} meta={meta} fields={['id', ...FIELDS]} />
        ),
      },
    ],
  },
};
