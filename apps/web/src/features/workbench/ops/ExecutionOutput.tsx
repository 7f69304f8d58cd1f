import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Alert, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { HostTable } from './HostTable.tsx';
import { executionError, executionStatus, hostRows, STATUS_COLOR } from './hostResults.ts';
import { EXECUTIONS_URL, jobLogPath, jobsApi } from './jobsApi.ts';
import styles from './ops.module.css';

// xterm.js comes with this component's chunk only (the task-log page's terminal).
const TaskLogTerminal = lazy(() =>
  import('../../ops/TaskLogTerminal.tsx').then((m) => ({ default: m.TaskLogTerminal })),
);

/**
 * A job execution as it runs: its output streamed into a terminal from the task-log socket, then
 * its state and time and one row per host (`task-detail`, `asset-detail`, and the execution's own
 * summary for an error of the whole run).
 */
/** `onDone`: called once the run is over (a page showing the execution's facts reloads them). */
export function ExecutionOutput({ taskId, onDone }: { taskId: string; onDone?: () => void }) {
  const { t } = useTranslation();
  const [ended, setEnded] = useState(false);
  const [socketError, setSocketError] = useState(false);
  const detail = useQuery({
    queryKey: ['ops', 'task-detail', taskId, ended],
    queryFn: () => jobsApi.taskDetail(taskId),
    retry: false,
    // The log may end a moment before the execution is marked finished: ask again until it is.
    refetchInterval: (q) => (ended && q.state.data && !q.state.data.is_finished ? 1000 : false),
  });
  // A finished execution (opened later) has its results at once; a running one once its log ends.
  const done = Boolean(detail.data?.is_finished) || (ended && Boolean(detail.error));
  // Once: the caller's reload is a new function at every render of the page.
  const told = useRef(false);
  useEffect(() => {
    if (!done || !ended || told.current) return;
    told.current = true;
    onDone?.();
  }, [done, ended, onDone]);
  const hosts = useQuery({
    queryKey: ['ops', 'asset-detail', taskId],
    queryFn: () => jobsApi.assetDetail(taskId),
    enabled: done,
    retry: false,
  });
  const execution = useQuery({
    queryKey: ['ops', 'execution', taskId],
    queryFn: () => http.get<Record<string, unknown>>(`${EXECUTIONS_URL}${encodeURIComponent(taskId)}/`),
    enabled: done,
    retry: false,
  });
  const status = detail.data ? executionStatus(detail.data) : ended ? undefined : 'running';
  const whole = executionError(execution.data);
  return (
    <div data-testid="execution-output">
      <Space wrap>
        <Typography.Text strong>{t('jobs.result.title')}</Typography.Text>
        <Typography.Text code>{taskId}</Typography.Text>
        {status && (
          <Tag color={STATUS_COLOR[status]} data-testid="execution-status">
            {t(`jobs.status.${status}`)}
          </Tag>
        )}
        {done && detail.data && (
          <span data-testid="execution-time">
            {t('jobs.result.took', { seconds: Number(detail.data.time_cost ?? 0).toFixed(2) })}
          </span>
        )}
        <a href={jobLogPath(taskId)} target="_blank" rel="noopener noreferrer">
          {t('jobs.result.openLog')}
        </a>
      </Space>
      {socketError && <Alert type="error" showIcon title={t('ops.taskLog.socketError')} />}
      {detail.error && <Alert type="error" showIcon title={errorMessage(detail.error, t)} />}
      <div className={styles.terminal}>
        <Suspense fallback={<Spin />}>
          <TaskLogTerminal
            key={taskId}
            task={taskId}
            type="ansible"
            onEnd={() => setEnded(true)}
            onError={() => setSocketError(true)}
          />
        </Suspense>
      </div>
      {whole && <Alert type="error" showIcon title={whole} data-testid="execution-error" style={{ marginTop: 12 }} />}
      {done && (
        <div style={{ marginTop: 12 }}>
          {hosts.error ? (
            <Alert type="error" showIcon title={errorMessage(hosts.error, t)} />
          ) : (
            <HostTable rows={hostRows(hosts.data)} loading={hosts.isPending} />
          )}
        </div>
      )}
    </div>
  );
}
