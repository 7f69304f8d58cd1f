import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Empty, Spin, Tree, type TreeDataNode } from 'antd';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';
import { errorMessage } from '../../../resource/errorMessage.ts';
import type { ZTreeItem } from '../../console/assets/nodeTree/treeState.ts';
import { PERMS_USERS } from '../../console/perms/grants/grantedAssets.ts';

/** What selecting a category or type node filters the table by. */
export interface CategoryFilter {
  key: string;
  category?: string;
  type?: string;
}

type Item = ZTreeItem & { meta?: ZTreeItem['meta'] & { category?: string; _type?: string } };

/** The granted assets by category and type (`ROOT`, `ROOT_<CATEGORY>`, `ROOT_<CATEGORY>_<type>`). */
export function CategoryTree({
  selected,
  onSelect,
  height,
}: {
  selected?: string;
  onSelect(f: CategoryFilter | null): void;
  height: number;
}) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['granted-category-tree'],
    queryFn: () =>
      http.get<Item[]>(`${PERMS_USERS}/self/nodes/children-with-assets/category/tree/`, { params: { sync: '0' } }),
  });
  const { data, byId } = useMemo(() => {
    const rows = (q.data ?? []).filter((r) => r.meta?.type !== 'asset');
    const ids = new Set(rows.map((r) => r.id));
    const build = (parent: string | undefined): TreeDataNode[] =>
      rows
        .filter((r) => (parent === undefined ? !r.pId || !ids.has(r.pId) : r.pId === parent))
        .map((r) => ({ key: r.id, title: <span data-testid="category-node">{r.name}</span>, children: build(r.id) }));
    return { data: build(undefined), byId: new Map(rows.map((r) => [r.id, r])) };
  }, [q.data]);
  if (q.isPending) return <Spin style={{ display: 'block', margin: 24 }} />;
  if (q.error) return <Alert type="error" showIcon title={errorMessage(q.error, t)} />;
  if (!data.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <Tree
      virtual
      height={height}
      blockNode
      defaultExpandAll
      treeData={data}
      selectedKeys={selected ? [selected] : []}
      onSelect={(keys) => {
        const item = keys.length ? byId.get(String(keys[0])) : undefined;
        if (!item || item.id === 'ROOT') return onSelect(null);
        const m = item.meta ?? {};
        onSelect({
          key: item.id,
          category: m.category ?? item.id.split('_')[1]?.toLowerCase(),
          type: m.type === 'type' ? (m._type ?? item.id.split('_').slice(2).join('_')) : undefined,
        });
      }}
    />
  );
}
