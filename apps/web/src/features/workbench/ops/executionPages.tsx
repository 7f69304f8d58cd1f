import { DetailCard } from '../../../resource/DetailCard.tsx';
import type { ResourcePageParts } from '../../../resource/resourceRoute.tsx';
import { executionColumns, executionColumnsMeta, executionRowActions } from './executionColumns.tsx';
import { ExecutionOutput } from './ExecutionOutput.tsx';

/**
 * Executions (`/workbench/ops/executions`): the user's own job runs with their state and time; the
 * detail shows the facts, the output (the task log replayed) and the result of every host.
 */
export const executionPages: ResourcePageParts = {
  list: {
    name: 'JobExecutionList',
    columns: executionColumns,
    columnsShow: { default: executionColumns, min: ['id', 'actions'] },
    columnsMeta: executionColumnsMeta,
    linkColumn: 'id',
    headerActions: { hasCreate: false, hasBulkDelete: false, hasImport: false },
    rowActions: executionRowActions,
  },
  detail: {
    hasActivity: false,
    canUpdate: () => false,
    canDelete: () => false,
    tabs: [
      {
        name: 'JobExecutionDetail',
        title: 'jobs.tab.detail',
        render: (x, { meta, reload }) => (
          <>
            <DetailCard
              title="jobs.card.basic"
              object={x}
              meta={meta}
              fields={[
                'id',
                'job',
                'material',
                'job_type',
                'status',
                'time_cost',
                'date_start',
                'date_finished',
                'parameters',
              ]}
              formatters={{
                status: executionColumnsMeta.status!.formatter!,
                time_cost: executionColumnsMeta.time_cost!.formatter!,
              }}
              labels={{ status: 'jobs.field.status', job: 'jobs.field.job' }}
            />
            <div style={{ marginTop: 12 }}>
              {/* A run watched here finishes here: the facts above (status, time) are read again. */}
              <ExecutionOutput taskId={String(x.task_id ?? x.id)} onDone={reload} />
            </div>
          </>
        ),
      },
    ],
  },
};
