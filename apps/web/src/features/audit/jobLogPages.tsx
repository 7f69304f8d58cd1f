import { DetailCard } from '../../resource/DetailCard.tsx';
import type { ResourcePageParts } from '../../resource/resourceRoute.tsx';
import { AUDIT_DETAIL, AUDIT_LIST } from './auditList.ts';

const FIELDS = ['created_by', 'material', 'is_finished', 'is_success', 'time_cost', 'date_start', 'date_finished'];

/** Job logs: empty until the job centre runs jobs (the server answers the list's shape). */
export const jobLogPages: ResourcePageParts = {
  list: {
    ...AUDIT_LIST,
    name: 'JobLogList',
    columns: [...FIELDS, 'actions'],
    columnsShow: { default: FIELDS, min: ['material', 'date_start'] },
    columnsMeta: { actions: { has: false } },
    linkColumn: 'material',
  },
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'JobLogDetail',
        title: 'audit.tab.Detail',
        render: (log, { meta }) => <DetailCard title="audit.card.basic" object={log} meta={meta} />,
      },
    ],
  },
};
