import { useState } from 'react';
import { App, Badge, Button, Card, Drawer, Space, Switch, Table, Tabs, Tag } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../lib/appStore.ts';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import { SettingsForm } from '../form/SettingsForm.tsx';
import { CLEAN_PAGE } from '../form/settingsPages.ts';

/**
 * Settings › Tasks: Gatehouse's own tasks (`/api/v1/ops/tasks/`) with queue, cycle, success/total,
 * state and last run; a task's drawer lists its executions (`task-executions/?task_id=`) with a
 * re-run of each (`POST task-executions/?from=`) and the switch of a periodic task
 * (`celery/period-tasks/<name>/`). Cleaning stays as a tab (the `clean` settings form).
 */
interface Task {
  id: string;
  name: string;
  meta: { comment: string; queue: string };
  is_periodic: boolean;
  enabled: boolean;
  exec_cycle: string;
  summary: { success: number; total: number };
  state: 'green' | 'yellow' | 'red';
  date_last_publish: string | null;
}
interface Execution {
  id: string;
  trigger: string;
  state: string;
  date_start: string;
  time_cost: number;
  error: string;
}

const DOT = { green: 'success', yellow: 'warning', red: 'error' } as const;
const when = (s: string | null) => (s ? new Date(s).toLocaleString() : '—');

function History({ task, onChanged }: { task: Task; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const key = ['/api/v1/ops/task-executions/', task.name];
  const list = useQuery({
    queryKey: key,
    queryFn: () =>
      http.get<{ results: Execution[] }>('/api/v1/ops/task-executions/', { params: { task_id: task.name, limit: 50 } }),
    refetchInterval: (q) => (q.state.data?.results.some((e) => e.state === 'running') ? 1000 : false),
  });
  const queryClient = useQueryClient();
  const rerun = async (params: Record<string, string>) => {
    try {
      await http.post('/api/v1/ops/task-executions/', {}, { params });
      await queryClient.invalidateQueries({ queryKey: key });
      onChanged();
      void message.success(t('settings.tasks.started'));
    } catch (e) {
      void message.error(errorMessage(e, t));
    }
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Button type="primary" onClick={() => void rerun({ task_id: task.name })} data-testid="task-run">
        {t('settings.tasks.run')}
      </Button>
      <Table<Execution>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.results ?? []}
        pagination={false}
        data-testid="task-history"
        columns={[
          { title: t('settings.tasks.dateStart'), render: (_: unknown, r) => when(r.date_start) },
          { title: t('settings.tasks.trigger'), render: (_: unknown, r) => t(`settings.tasks.triggers.${r.trigger}`) },
          {
            title: t('settings.tasks.state'),
            render: (_: unknown, r) => (
              <Tag color={r.state === 'success' ? 'success' : r.state === 'failure' ? 'error' : 'processing'}>
                {t(`settings.tasks.states.${r.state}`)}
              </Tag>
            ),
          },
          { title: t('settings.tasks.timeCost'), render: (_: unknown, r) => `${r.time_cost.toFixed(2)} s` },
          { title: t('settings.tasks.error'), dataIndex: 'error' },
          {
            title: '',
            render: (_: unknown, r) => (
              <Button size="small" onClick={() => void rerun({ from: r.id })}>
                {t('settings.tasks.rerun')}
              </Button>
            ),
          },
        ]}
      />
    </Space>
  );
}

function TaskList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Task | undefined>();
  const key = ['/api/v1/ops/tasks/'];
  const list = useQuery({ queryKey: key, queryFn: () => http.get<Task[]>('/api/v1/ops/tasks/') });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  const toggle = async (task: Task, enabled: boolean) => {
    try {
      await http.patch(`/api/v1/ops/celery/period-tasks/${task.name}/`, { enabled });
      refresh();
    } catch (e) {
      void message.error(errorMessage(e, t));
    }
  };
  return (
    <>
      <Table<Task>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data ?? []}
        pagination={false}
        data-testid="task-list"
        columns={[
          {
            title: t('settings.tasks.name'),
            render: (_: unknown, r) => (
              <Button type="link" style={{ padding: 0 }} onClick={() => setOpen(r)}>
                {r.meta.comment}
              </Button>
            ),
          },
          { title: t('settings.tasks.queue'), render: (_: unknown, r) => r.meta.queue },
          { title: t('settings.tasks.cycle'), dataIndex: 'exec_cycle' },
          {
            title: t('settings.tasks.successTotal'),
            render: (_: unknown, r) => `${r.summary.success}/${r.summary.total}`,
          },
          {
            title: t('settings.tasks.state'),
            render: (_: unknown, r) => <Badge status={DOT[r.state]} data-testid={`task-state-${r.name}`} />,
          },
          { title: t('settings.tasks.lastRun'), render: (_: unknown, r) => when(r.date_last_publish) },
          {
            title: t('settings.tasks.enabled'),
            render: (_: unknown, r) =>
              r.is_periodic ? (
                <Switch
                  size="small"
                  checked={r.enabled}
                  data-testid={`task-enabled-${r.name}`}
                  onChange={(v) => void toggle(r, v)}
                />
              ) : null,
          },
        ]}
      />
      <Drawer
        open={Boolean(open)}
        onClose={() => setOpen(undefined)}
        width={900}
        title={open?.meta.comment}
        destroyOnClose
      >
        {open && <History task={open} onChanged={refresh} />}
      </Drawer>
    </>
  );
}

export function TasksPage() {
  const { t } = useTranslation();
  const canClean = useAppStore((s) => hasPermission(s.perms, 'settings.change_clean'));
  return (
    <Card>
      <Tabs
        items={[
          { key: 'tasks', label: t('settings.tasks.tabTasks'), children: <TaskList /> },
          ...(canClean
            ? [{ key: 'clean', label: t('settings.tasks.tabCleaning'), children: <SettingsForm page={CLEAN_PAGE} /> }]
            : []),
        ]}
      />
    </Card>
  );
}
