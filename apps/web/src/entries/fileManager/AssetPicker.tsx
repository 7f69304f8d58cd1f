import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Input, Space, Table, Tag, Typography } from 'antd';
import { errorText, sftpApi, type GrantedAsset } from './sftpApi.ts';

const PAGE_SIZE = 10;

/** The file manager's own address for one asset: its account choice. */
export const assetHref = (id: string) => `?${new URLSearchParams({ asset: id }).toString()}`;

/**
 * The file manager opened without an asset (the workbench's "File manager" entry, as koko's
 * `/koko/elfinder/sftp/`): the user's granted active assets that speak SFTP (or SSH, which carries
 * it), searchable and paged by the server; a name opens that asset's account choice (a link, so the
 * browser's back button returns here).
 */
export function AssetPicker() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ count: number; results: GrantedAsset[] }>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    setLoading(true);
    sftpApi
      .assets({ search: search || undefined, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE })
      .then(
        (d) => {
          if (live) setData(d);
        },
        (e: unknown) => {
          if (live) setError(errorText(e));
        },
      )
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [search, page]);
  if (error) return <Alert type="error" title={error} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle" data-testid="asset-picker">
      <Space style={{ justifyContent: 'space-between', width: '100%' }} wrap>
        <Typography.Text type="secondary">{t('fileManager.pickAsset')}</Typography.Text>
        <Input.Search
          allowClear
          style={{ width: 280 }}
          placeholder={t('fileManager.searchAssets')}
          aria-label={t('fileManager.searchAssets')}
          onSearch={(v) => {
            setPage(1);
            setSearch(v.trim());
          }}
        />
      </Space>
      <Table<GrantedAsset>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={data?.results ?? []}
        locale={{ emptyText: t(search ? 'fileManager.noMatch' : 'fileManager.noAssets') }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: data?.count ?? 0,
          onChange: setPage,
          hideOnSinglePage: true,
          showSizeChanger: false,
        }}
        columns={[
          {
            title: t('fileManager.asset'),
            dataIndex: 'name',
            ellipsis: true,
            render: (name: string, a) => <a href={assetHref(a.id)}>{name}</a>,
          },
          { title: t('fileManager.address'), dataIndex: 'address', ellipsis: true },
          {
            title: t('fileManager.platform'),
            dataIndex: 'platform',
            width: 160,
            render: (p: GrantedAsset['platform']) => p?.name ?? '-',
          },
          {
            title: t('fileManager.protocols'),
            dataIndex: 'protocols',
            width: 200,
            render: (ps: GrantedAsset['protocols']) =>
              ps
                .filter((p) => ['sftp', 'ssh'].includes(p.name))
                .map((p) => <Tag key={p.name}>{`${p.name}/${p.port}`}</Tag>),
          },
        ]}
      />
    </Space>
  );
}
