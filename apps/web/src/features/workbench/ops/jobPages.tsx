import { Button, Space } from 'antd';
import { CaretRightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DetailCard } from '../../../resource/DetailCard.tsx';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import type { ResourcePageParts } from '../../../resource/resourceRoute.tsx';
import type { ResourceObject } from '../../../resource/types.ts';
import { secondsText } from './hostResults.ts';
import { EXECUTIONS_URL } from './jobsApi.ts';
import { executionColumns, executionColumnsMeta, executionPaths, executionRowActions } from './executionColumns.tsx';
import { jobForm } from './jobForm.tsx';
import { JobList, PeriodicSwitch } from './JobList.tsx';
import { useRunJob } from './runJob.tsx';

const COLUMNS = [
  'name',
  'type',
  'asset_amount',
  'average_time_cost',
  'summary',
  'is_periodic',
  'comment',
  'date_last_run',
];

/** `{success, total}` (or counts of ok/failed) as "success/total". */
function summaryText(v: unknown): string {
  if (!v || typeof v !== 'object') return '-';
  const s = v as Record<string, unknown>;
  const total = Number(s.total ?? 0);
  const success = Number(s.success ?? 0);
  return total ? `${success}/${total}` : '-';
}

function RunButton({ job }: { job: ResourceObject }) {
  const { t } = useTranslation();
  const run = useRunJob();
  return (
    <>
      <Button type="primary" icon={<CaretRightOutlined />} onClick={() => run.start(job)} data-testid="job-run">
        {t('jobs.run.action')}
      </Button>
      {run.dialog}
    </>
  );
}

/** Jobs (`/workbench/ops/job`): the user's saved command and playbook jobs, their schedules and runs. */
export const jobPages: ResourcePageParts = {
  list: {
    name: 'JobList',
    columns: [...COLUMNS, 'actions'],
    columnsShow: { default: [...COLUMNS, 'actions'], min: ['name', 'actions'] },
    columnsMeta: {
      asset_amount: {
        label: 'jobs.field.assetAmount',
        formatter: ({ row, value }) =>
          typeof value === 'number' ? value : Array.isArray(row.assets) ? row.assets.length : '-',
      },
      summary: { label: 'jobs.field.summary', formatter: ({ value }) => summaryText(value) },
      average_time_cost: { formatter: ({ value, t }) => secondsText(value, t) },
      is_periodic: { formatter: ({ row }) => <PeriodicSwitch row={row} /> },
    },
    columnsExtra: ['asset_amount'],
    headerActions: { hasImport: false, hasExport: false },
  },
  listPage: (cfg) => <JobList cfg={cfg} />,
  form: jobForm,
  detail: {
    tabs: [
      {
        name: 'JobDetail',
        title: 'jobs.tab.detail',
        render: (job, { meta }) => (
          <Space direction="vertical" style={{ width: '100%' }}>
            <RunButton job={job} />
            <DetailCard
              title="jobs.card.basic"
              object={job}
              meta={meta}
              excludes={['assets', 'nodes', 'creator', 'org_id', 'task_id', 'instant', 'run_after_save']}
              formatters={{ summary: ({ value }) => summaryText(value) }}
            />
          </Space>
        ),
      },
      {
        name: 'JobExecutions',
        title: 'jobs.tab.history',
        render: (job) => (
          <ResourceList
            url={EXECUTIONS_URL}
            name="JobExecutionHistory"
            extraQuery={{ job_id: job.id }}
            columns={executionColumns}
            columnsMeta={executionColumnsMeta}
            paths={executionPaths}
            linkColumn="id"
            noSelection
            headerActions={{ hasCreate: false, hasBulkDelete: false, hasImport: false, hasExport: false }}
            rowActions={executionRowActions}
          />
        ),
      },
    ],
  },
};
