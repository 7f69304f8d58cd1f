import { useState } from 'react';
import { Button, Dropdown, Switch } from 'antd';
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import type { ResourcePagesConfig } from '../../../resource/resourceRoute.tsx';
import type { ResourceObject } from '../../../resource/types.ts';
import { useAction } from '../../../resource/useAction.ts';
import { JOBS_URL } from './jobsApi.ts';
import { useRunJob } from './runJob.tsx';

/** "Create" as a menu: a command job or a playbook job (`create?type=`). */
export function CreateJobMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dropdown
      menu={{
        items: [
          { key: 'adhoc', label: t('jobs.type.adhoc') },
          { key: 'playbook', label: t('jobs.type.playbook') },
        ],
        onClick: ({ key }) => navigate(`/workbench/ops/job/create?type=${key}`),
      }}
    >
      <Button type="primary" icon={<PlusOutlined />} data-testid="create-job">
        {t('resource.create')} <DownOutlined />
      </Button>
    </Dropdown>
  );
}

/** A periodic job's schedule switched on or off from the list (`PATCH {is_periodic}`). */
export function PeriodicSwitch({ row }: { row: ResourceObject }) {
  const a = useAction();
  const [on, setOn] = useState(Boolean(row.is_periodic));
  return (
    <Switch
      size="small"
      checked={on}
      loading={a.busy}
      data-testid="job-periodic"
      onChange={(next) =>
        void a.run(() => http.patch(`${JOBS_URL}${row.id}/`, { is_periodic: next })).then((ok) => ok && setOn(next))
      }
    />
  );
}

/** The jobs list with its create menu and a "Run" action on every row. */
export function JobList({ cfg }: { cfg: ResourcePagesConfig }) {
  const run = useRunJob();
  return (
    <>
      <ResourceList
        url={cfg.url}
        permissions={cfg.permissions}
        urlQuery
        {...cfg.list}
        headerActions={{
          ...cfg.list.headerActions,
          hasCreate: false,
          extra: [{ key: 'create', render: () => <CreateJobMenu /> }],
        }}
        rowActions={{
          ...cfg.list.rowActions,
          extra: [{ name: 'run', title: 'jobs.run.action', order: 5, onClick: (row) => run.start(row) }],
        }}
      />
      {run.dialog}
    </>
  );
}
