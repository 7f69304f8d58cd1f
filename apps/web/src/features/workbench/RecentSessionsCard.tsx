import { Alert, Button, Card, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../lib/appStore.ts';
import { errorMessage } from '../../resource/errorMessage.ts';
import { lunaConnectUrl } from './myAssets/ConnectCell.tsx';
import { fileManagerUrl } from './fileManagerUrl.ts';
import { fetchRecentSessions, RECENT_SESSIONS_KEY, type MySession } from './workbenchApi.ts';
import { formatDate } from '../../resource/values.ts';

/**
 * The user's five latest sessions (`/api/v1/terminal/my-sessions/?limit=5`, the current org's),
 * each with a button that opens it again in a new tab: the web terminal on the same asset and
 * account (`/luna/?login_to=<asset>&login_account=<account>`), or the file manager on the asset for
 * an SFTP session, when the user may use that page.
 */
export function RecentSessionsCard() {
  const { t, i18n } = useTranslation();
  const perms = useAppStore((s) => s.perms);
  const mayConnect = hasPermission(perms, 'rbac.view_webterminal');
  const mayBrowse = hasPermission(perms, 'rbac.view_filemanager');
  const sessions = useQuery({ queryKey: RECENT_SESSIONS_KEY, queryFn: fetchRecentSessions });
  const columns: ColumnsType<MySession> = [
    { key: 'asset', title: t('workbench.session.asset'), dataIndex: 'asset', ellipsis: true },
    { key: 'account', title: t('workbench.session.account'), dataIndex: 'account', ellipsis: true },
    {
      key: 'protocol',
      title: t('workbench.session.protocol'),
      render: (_, r) => <Tag>{r.protocol}</Tag>,
    },
    { key: 'remote_addr', title: t('workbench.session.remoteAddr'), dataIndex: 'remote_addr' },
    {
      key: 'date_start',
      title: t('workbench.session.dateStart'),
      render: (_, r) => formatDate(r.date_start, i18n.language),
    },
  ];
  // An SFTP session reopens in the file manager, any other in the web terminal.
  const reopen = (r: MySession): { url: string; label: string } | undefined =>
    r.type?.value === 'sftp'
      ? mayBrowse
        ? { url: fileManagerUrl(r.asset_id), label: t('workbench.session.openFiles') }
        : undefined
      : mayConnect
        ? { url: lunaConnectUrl(r.asset_id, r.account_id || undefined), label: t('workbench.assets.connect') }
        : undefined;
  if (mayConnect || mayBrowse)
    columns.push({
      key: 'action',
      title: t('workbench.session.action'),
      render: (_, r) => {
        const to = reopen(r);
        return to ? (
          <Button
            size="small"
            type="link"
            data-testid="recent-session-connect"
            onClick={() => window.open(to.url, '_blank', 'noopener')}
          >
            {to.label}
          </Button>
        ) : null;
      },
    });
  return (
    <Card title={t('workbench.home.recentSessions')} data-testid="workbench-recent-sessions">
      {sessions.isError ? (
        <Alert type="error" showIcon title={errorMessage(sessions.error, t)} />
      ) : (
        <Table<MySession>
          rowKey="id"
          size="small"
          pagination={false}
          loading={sessions.isLoading}
          columns={columns}
          dataSource={sessions.data?.results ?? []}
          scroll={{ x: true }}
          locale={{ emptyText: t('workbench.session.empty') }}
        />
      )}
    </Card>
  );
}
