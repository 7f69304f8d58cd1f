import { useState } from 'react';
import { Table } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../../lib/http.ts';
import { errorMessage } from '../../../../resource/errorMessage.ts';
import type { Page, ResourceObject } from '../../../../resource/types.ts';
import { objectName } from '../../../../resource/values.ts';

/** The users or assets a rule's selector picks now (`<rule>/<id>/users/` or `assets/`), 15 a page. */
export function MatchTable({ url, kind }: { url: string; kind: 'users' | 'assets' }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['acl-matches', url, page],
    queryFn: () => http.get<Page<ResourceObject>>(url, { params: { limit: 15, offset: (page - 1) * 15 } }),
  });
  const columns =
    kind === 'users'
      ? [
          { key: 'name', dataIndex: 'name', title: t('acls.column.name') },
          { key: 'username', dataIndex: 'username', title: t('acls.column.username') },
          { key: 'email', dataIndex: 'email', title: t('acls.column.email') },
        ]
      : [
          { key: 'name', dataIndex: 'name', title: t('acls.column.name') },
          { key: 'address', dataIndex: 'address', title: t('acls.column.address') },
          {
            key: 'platform',
            dataIndex: 'platform',
            title: t('acls.column.platform'),
            render: (v: unknown) => objectName(v),
          },
        ];
  return (
    <Table
      data-testid={`match-${kind}`}
      rowKey="id"
      size="small"
      loading={q.isPending}
      locale={q.error ? { emptyText: errorMessage(q.error, t) } : undefined}
      columns={columns}
      dataSource={q.data?.results ?? []}
      pagination={{ current: page, pageSize: 15, total: q.data?.count ?? 0, onChange: setPage, showSizeChanger: false }}
    />
  );
}
