import { Tag } from 'antd';
import type { ColumnOverride } from '../../../resource/columns.ts';
import type { RowActionsConfig } from '../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../resource/resourcePaths.ts';
import { objectName } from '../../../resource/values.ts';
import { executionStatus, secondsText, STATUS_COLOR } from './hostResults.ts';
import { jobLogPath } from './jobsApi.ts';

/** Columns an execution list shows (own executions, a job's history). */
export const executionColumns = ['id', 'job', 'material', 'job_type', 'status', 'time_cost', 'date_start', 'actions'];

export const executionColumnsMeta: Record<string, ColumnOverride> = {
  id: { formatter: ({ value }) => String(value).slice(0, 8), width: 100 },
  job: { label: 'jobs.field.job', formatter: ({ value }) => (value ? objectName(value) : '-') },
  status: {
    label: 'jobs.field.status',
    formatter: ({ row, t }) => {
      const s = executionStatus(row);
      return (
        <Tag color={STATUS_COLOR[s]} data-testid="execution-row-status">
          {t(`jobs.status.${s}`)}
        </Tag>
      );
    },
  },
  time_cost: { formatter: ({ value, t }) => secondsText(value, t) },
};

export const executionPaths = resourcePaths('/workbench/ops/executions');

/** "Output": the execution's task log in a window of its own. */
export const openOutput = (id: string) => window.open(jobLogPath(id), '_blank', 'noopener');

export const executionRowActions: RowActionsConfig = {
  hasUpdate: false,
  hasDelete: false,
  hasClone: false,
  extra: [{ name: 'output', title: 'jobs.result.output', onClick: (row) => openOutput(String(row.task_id ?? row.id)) }],
};
