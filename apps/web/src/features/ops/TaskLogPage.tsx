import { lazy, Suspense, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { Alert, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { fetchTaskState, type TaskState } from './taskApi.ts';

// xterm.js loads with this page only, not with the rest of the console.
const TaskLogTerminal = lazy(() => import('./TaskLogTerminal.tsx').then((m) => ({ default: m.TaskLogTerminal })));

const STATE_COLOR: Record<TaskState['state'], string> = {
  PENDING: 'default',
  STARTED: 'processing',
  SUCCESS: 'success',
  FAILURE: 'error',
};

/** The log type from the path (`/ops/<type>/task/<id>/log/`), celery by default. */
function typeOf(pathname: string): string {
  const m = /\/ops\/(celery|ansible|task)\/task\//.exec(pathname);
  return m?.[1] === 'ansible' ? 'ansible' : 'celery';
}

/**
 * The hidden task-log page: the task's output in a terminal, fed
 * by the task-log socket, and its state, read again once the log ends.
 */
export function TaskLogPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  usePageTitle();
  const [ended, setEnded] = useState(false);
  const [socketError, setSocketError] = useState(false);
  const state = useQuery({ queryKey: ['ops', 'task', id, ended], queryFn: () => fetchTaskState(id), retry: false });
  const s = state.data?.state;
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        height: '100vh',
        padding: 12,
        boxSizing: 'border-box',
        gap: 8,
      }}
      data-testid="task-log-page"
    >
      <Space wrap>
        <Typography.Text strong>{t('ops.taskLog.title')}</Typography.Text>
        <Typography.Text code>{id}</Typography.Text>
        {state.data?.name && <Typography.Text type="secondary">{state.data.name}</Typography.Text>}
        <span>{t('ops.taskLog.state')}:</span>
        <Tag color={s ? STATE_COLOR[s] : 'default'} data-testid="task-log-state">
          {s ? t(`ops.state.${s}`) : '-'}
        </Tag>
        {ended && (
          <Tag color="blue" data-testid="task-log-ended">
            {t('ops.taskLog.ended')}
          </Tag>
        )}
      </Space>
      {socketError && <Alert type="error" showIcon title={t('ops.taskLog.socketError')} />}
      <Suspense fallback={<Spin />}>
        <TaskLogTerminal
          task={id}
          type={typeOf(pathname)}
          onEnd={() => setEnded(true)}
          onError={() => setSocketError(true)}
        />
      </Suspense>
    </div>
  );
}
