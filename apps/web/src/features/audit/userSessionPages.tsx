import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../lib/appStore.ts';
import { http } from '../../lib/http.ts';
import { DetailCard } from '../../resource/DetailCard.tsx';
import type { CellFormatter } from '../../resource/formatters.tsx';
import { ResourceList } from '../../resource/ResourceList.tsx';
import type { ResourcePageParts, ResourcePagesConfig } from '../../resource/resourceRoute.tsx';
import type { ResourceObject } from '../../resource/types.ts';
import { useAction } from '../../resource/useAction.ts';
import { AUDIT_DETAIL, AUDIT_LIST } from './auditList.ts';

const FIELDS = ['user', 'backend_display', 'ip', 'city', 'user_agent', 'date_created'];
const OFFLINE = '/api/v1/audits/user-sessions/offline/';

const userName: CellFormatter = ({ value }) => (value as { name?: string } | null)?.name ?? '-';
const notMine = (row: ResourceObject) => !row.is_current_user_session;

/** The list with "Offline" on a row and on the selection; one's own session is never offered. */
function UserSessionList({ cfg }: { cfg: ResourcePagesConfig }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { run } = useAction();
  const may = useAppStore((s) => hasPermission(s.perms, 'audits.offline_usersession'));
  const offline = (rows: ResourceObject[], reload: () => void) => {
    const ids = rows.filter(notMine).map((r) => String(r.id));
    if (!ids.length) return;
    modal.confirm({
      title: t('auditlogs.offline.confirm', { count: ids.length }),
      okButtonProps: { danger: true },
      onOk: async () => {
        await run(() => http.post(OFFLINE, { ids }), t('auditlogs.offline.done'));
        reload();
      },
    });
  };
  return (
    <ResourceList
      url={cfg.url}
      permissions={cfg.permissions}
      urlQuery
      {...cfg.list}
      headerActions={{
        ...cfg.list.headerActions,
        batchExtra: [{ key: 'offline', label: t('auditlogs.offline.action'), has: may, onClick: offline }],
      }}
      rowActions={{
        ...cfg.list.rowActions,
        extra: [
          {
            name: 'offline',
            title: 'auditlogs.offline.action',
            danger: true,
            has: (row) => may && notMine(row),
            onClick: (row, reload) => offline([row], reload),
          },
        ],
      }}
    />
  );
}

export const userSessionPages: ResourcePageParts = {
  list: {
    ...AUDIT_LIST,
    hasDatePicker: false,
    name: 'UserSessionList',
    columns: [...FIELDS, 'type', 'date_expired', 'actions'],
    columnsShow: { default: [...FIELDS, 'actions'], min: ['user', 'actions'] },
    columnsMeta: { user: { formatter: userName } },
    linkColumn: 'user',
  },
  listPage: (cfg) => <UserSessionList cfg={cfg} />,
  detail: {
    ...AUDIT_DETAIL,
    tabs: [
      {
        name: 'UserSessionDetail',
        title: 'audit.tab.Detail',
        render: (s, { meta }) => (
          <DetailCard
            title="audit.card.basic"
            object={s}
            meta={meta}
            fields={['id', ...FIELDS, 'type', 'date_expired']}
            formatters={{ user: userName }}
          />
        ),
      },
    ],
  },
};
