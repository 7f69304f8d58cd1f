import { useMemo, useState } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { ResourceList } from '../../../resource/ResourceList.tsx';
import { TreeSplit, treeHeight } from '../../console/assets/assetList/TreeSplit.tsx';
import { BrowseTree } from '../../console/assets/nodeTree/BrowseTree.tsx';
import type { NodeItem } from '../../console/assets/nodeTree/treeState.ts';
import {
  GRANTED_ASSET_FIELDS,
  GRANTED_ASSET_LABELS,
  grantUrls,
  PERMS_USERS,
} from '../../console/perms/grants/grantedAssets.ts';
import { CategoryTree, type CategoryFilter } from './CategoryTree.tsx';
import { ConnectCell } from './ConnectCell.tsx';
import { FavoriteStar, useFavorites } from './FavoriteStar.tsx';

type Scope =
  | { kind: 'all' }
  | { kind: 'node'; node: NodeItem }
  | { kind: 'category'; filter: CategoryFilter }
  | { kind: 'favorite' };

const mine = grantUrls({ user: 'self' });

/** The table's URL and query for what is selected beside it. */
function listOf(scope: Scope): { url: string; query?: Record<string, string> } {
  switch (scope.kind) {
    case 'node':
      return { url: mine.nodeAssets(scope.node.id) };
    case 'favorite':
      return { url: `${PERMS_USERS}/self/nodes/favorite/assets/` };
    case 'category':
      return {
        url: mine.assets,
        query: { category: scope.filter.category ?? '', ...(scope.filter.type ? { type: scope.filter.type } : {}) },
      };
    default:
      return { url: mine.assets };
  }
}

/**
 * `/workbench/assets` "My assets": the granted node tree, the category tree and the favourites beside
 * the granted assets, each row with its account picker and a connect button (off until the web
 * terminal exists). Every load asks the server, so a change of the grants shows on the next one.
 */
export function MyAssetsPage() {
  const { t } = useTranslation();
  const [scope, setScope] = useState<Scope>({ kind: 'all' });
  const favorites = useFavorites();
  const { url, query } = listOf(scope);
  const height = treeHeight() - 50;
  const extraQuery = useMemo(() => query, [JSON.stringify(query)]); // eslint-disable-line react-hooks/exhaustive-deps -- the query is rebuilt each render; its content is the dependency
  const tree = (
    <Tabs
      size="small"
      data-testid="my-assets-trees"
      onChange={(k) => setScope(k === 'favorite' ? { kind: 'favorite' } : { kind: 'all' })}
      items={[
        {
          key: 'nodes',
          label: t('workbench.assets.nodeTree'),
          children: (
            <BrowseTree
              orgKey="self"
              source={mine.tree}
              title="workbench.assets.granted"
              selectedKey={scope.kind === 'node' ? scope.node.key : undefined}
              onSelect={(n) => setScope(n ? { kind: 'node', node: n } : { kind: 'all' })}
              height={height}
              testId="granted-node-tree"
            />
          ),
        },
        {
          key: 'category',
          label: t('workbench.assets.categoryTree'),
          children: (
            <CategoryTree
              height={height}
              selected={scope.kind === 'category' ? scope.filter.key : undefined}
              onSelect={(f) => setScope(f ? { kind: 'category', filter: f } : { kind: 'all' })}
            />
          ),
        },
        {
          key: 'favorite',
          label: t('workbench.assets.favorites'),
          children: <div>{t('workbench.assets.favoritesHint')}</div>,
        },
      ]}
    />
  );
  return (
    <div data-testid="my-assets-page">
      <TreeSplit tree={tree}>
        <ResourceList
          key={url}
          url={url}
          name="MyAssetList"
          paths={null}
          extraQuery={extraQuery}
          fieldsGet={GRANTED_ASSET_FIELDS}
          columnsExtra={['favorite', 'connect']}
          columnsMeta={{
            ...GRANTED_ASSET_LABELS,
            actions: { has: false },
            favorite: {
              label: 'workbench.assets.favorite',
              width: 60,
              formatter: ({ row }) => <FavoriteStar assetId={row.id} on={Boolean(favorites.data?.has(row.id))} />,
            },
            connect: {
              label: 'workbench.assets.connect',
              formatter: ({ row }) => <ConnectCell asset={row} />,
            },
          }}
          columnsShow={{
            default: ['favorite', 'name', 'address', 'platform', 'connectivity', 'is_active', 'connect'],
            min: ['name', 'connect'],
          }}
          noSelection
          headerActions={{ hasCreate: false, hasImport: false, hasExport: false, hasBulkDelete: false }}
          rowActions={{ hasUpdate: false, hasDelete: false, hasClone: false }}
        />
      </TreeSplit>
    </div>
  );
}
