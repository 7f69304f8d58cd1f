import { useState } from 'react';
import { DetailCard } from '../../resource/DetailCard.tsx';
import { DiffDialog } from '../../resource/DiffDialog.tsx';
import { ResourceList } from '../../resource/ResourceList.tsx';
import type { ResourcePageParts, ResourcePagesConfig } from '../../resource/resourceRoute.tsx';
import { AUDIT_DETAIL, AUDIT_LIST } from './auditList.ts';
import { OperateLogDiff } from './OperateLogDiff.tsx';

const FIELDS = ['user', 'action', 'resource_type', 'resource', 'remote_addr', 'datetime'];
const diffUrl = (id: string) => `/api/v1/audits/operate-logs/${id}/?type=action_detail`;

/** The list with its "View" action opening the operation's before/after (the activity timeline's dialog). */
function OperateLogList({ cfg }: { cfg: ResourcePagesConfig }) {
  const [diff, setDiff] = useState<string | null>(null);
  return (
    <>
      <ResourceList
        url={cfg.url}
        permissions={cfg.permissions}
        urlQuery
        {...cfg.list}
        rowActions={{
          ...cfg.list.rowActions,
          extra: [{ name: 'view', title: 'auditlogs.action.View', onClick: (row) => setDiff(diffUrl(String(row.id))) }],
        }}
      />
      <DiffDialog url={diff} onClose={() => setDiff(null)} />
    </>
  );
}

export const operateLogPages: ResourcePageParts = {
  list: {
    ...AUDIT_LIST,
    name: 'OperateLogList',
    columns: [...FIELDS, 'org_name', 'actions'],
    columnsShow: { default: [...FIELDS, 'actions'], min: ['user', 'actions'] },
    linkColumn: 'user',
  },
  listPage: (cfg) => <OperateLogList cfg={cfg} />,
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'OperateLogDetail',
        title: 'audit.tab.Detail',
        render: (log, { meta }) => (
          <>
            <DetailCard title="audit.card.basic" object={log} meta={meta} fields={['id', ...FIELDS, 'org_name']} />
            <OperateLogDiff diff={log.diff} />
          </>
        ),
      },
    ],
  },
};
