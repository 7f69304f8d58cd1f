import { Alert, Card, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { HttpError } from '../../lib/http.ts';
import { extractMessage } from '../../lib/httpErrors.ts';
import { fetchRecentLogins, RECENT_LOGINS_KEY, type LoginLog } from './workbenchApi.ts';
import { formatDate } from '../../resource/values.ts';

/** The five latest sign-in attempts of the user (`/api/v1/audits/my-login-logs/?limit=5`). */
export function RecentLoginsCard() {
  const { t, i18n } = useTranslation();
  const logs = useQuery({ queryKey: RECENT_LOGINS_KEY, queryFn: fetchRecentLogins });
  const columns: ColumnsType<LoginLog> = [
    { key: 'datetime', title: t('workbench.login.datetime'), render: (_, r) => formatDate(r.datetime, i18n.language) },
    { key: 'ip', title: t('workbench.login.ip'), dataIndex: 'ip' },
    { key: 'type', title: t('workbench.login.type'), render: (_, r) => r.type.label },
    { key: 'backend', title: t('workbench.login.backend'), dataIndex: 'backend_display' },
    { key: 'mfa', title: t('workbench.login.mfa'), render: (_, r) => r.mfa.label },
    {
      key: 'status',
      title: t('workbench.login.status'),
      render: (_, r) => (
        <Tag color={r.status.value ? 'success' : 'error'} title={r.reason_display || undefined}>
          {r.status.label}
        </Tag>
      ),
    },
  ];
  return (
    <Card title={t('workbench.home.recentLogins')} data-testid="workbench-recent-logins">
      {logs.isError ? (
        <Alert
          type="error"
          showIcon
          title={extractMessage((logs.error as HttpError).data) || t('session.error.unknown')}
        />
      ) : (
        <Table<LoginLog>
          rowKey="id"
          size="small"
          pagination={false}
          loading={logs.isLoading}
          columns={columns}
          dataSource={logs.data?.results ?? []}
          scroll={{ x: true }}
          locale={{ emptyText: t('workbench.login.empty') }}
        />
      )}
    </Card>
  );
}
