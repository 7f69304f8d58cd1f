import { Spin } from 'antd';
import { DetailCard } from '../../resource/DetailCard.tsx';
import { boolean } from '../../resource/formatters.tsx';
import type { ResourcePageParts } from '../../resource/resourceRoute.tsx';
import { AUDIT_DETAIL, AUDIT_LIST } from './auditList.ts';

const FIELDS = ['created_by', 'material', 'is_finished', 'is_success', 'time_cost', 'date_start', 'date_finished'];

/** A job execution's task log, in a window of its own (the log's id is the execution's). */
const openOutput = (id: string) =>
  window.open(`/ui/ops/ansible/task/${encodeURIComponent(id)}/log/`, '_blank', 'noopener');

/**
 * Job logs (`audits/job-logs/`): every user's job executions; "Output" opens the execution's task
 * log; success shows a spinner while the execution runs.
 */
export const jobLogPages: ResourcePageParts = {
  list: {
    ...AUDIT_LIST,
    name: 'JobLogList',
    columns: [...FIELDS, 'actions'],
    columnsShow: { default: [...FIELDS, 'actions'], min: ['material', 'date_start', 'actions'] },
    columnsMeta: {
      is_success: {
        formatter: (args) =>
          args.row.is_finished ? boolean(args) : <Spin size="small" data-testid="job-log-running" />,
      },
      time_cost: {
        formatter: ({ value, t }) =>
          typeof value === 'number' ? t('jobs.result.seconds', { value: value.toFixed(2) }) : '-',
      },
    },
    rowActions: {
      ...AUDIT_LIST.rowActions,
      extra: [
        {
          name: 'output',
          title: 'auditlogs.action.Output',
          onClick: (row) => openOutput(String(row.task_id ?? row.id)),
        },
      ],
    },
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
