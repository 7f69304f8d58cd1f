import { useEffect, useState } from 'react';
import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../../../lib/http.ts';
import { TabPage } from '../../../resource/TabPage.tsx';
import { VIRTUAL } from './accountApi.ts';
import { AccountTable } from './AccountTable.tsx';

interface VirtualAccount {
  id: string;
  alias: string;
  name: string;
  username: string;
  comment: string;
  secret_from_login: boolean | null;
}

/** The virtual accounts of the org (@INPUT, @USER, @ANON); only @USER links to its form. */
function VirtualAccounts() {
  const { t } = useTranslation();
  const [rows, setRows] = useState<VirtualAccount[] | null>(null);
  useEffect(() => {
    void http.get<VirtualAccount[]>(VIRTUAL).then(setRows, () => setRows([]));
  }, []);
  return (
    <Table<VirtualAccount>
      rowKey="id"
      data-testid="virtual-accounts"
      loading={!rows}
      dataSource={rows ?? []}
      pagination={false}
      columns={[
        {
          title: t('accounts.field.name'),
          dataIndex: 'name',
          render: (name: string, r) => <Link to={`/console/accounts/virtual-accounts/${r.id}`}>{name}</Link>,
        },
        { title: t('accounts.field.username'), dataIndex: 'username', render: (u: string) => <Tag>{u}</Tag> },
        { title: t('accounts.field.comment'), dataIndex: 'comment' },
      ]}
    />
  );
}

/** `/console/accounts/accounts/`: General and Virtual tabs. */
export function AccountListPage() {
  const { t } = useTranslation();
  return (
    <TabPage
      items={[
        { name: 'general', title: t('accounts.tab.general'), render: () => <AccountTable /> },
        { name: 'virtual', title: t('accounts.tab.virtual'), render: () => <VirtualAccounts /> },
      ]}
    />
  );
}
