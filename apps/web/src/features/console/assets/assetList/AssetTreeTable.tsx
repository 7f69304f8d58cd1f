import { useMemo, useState, type HTMLAttributes } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ROOT_ORG_ID, hasPermission } from '@gatehouse/contract';
import { useAppStore } from '../../../../lib/appStore.ts';
import { getCookie, setCookie } from '../../../../lib/cookies.ts';
import { ResourceList } from '../../../../resource/ResourceList.tsx';
import { resourcePaths } from '../../../../resource/resourcePaths.ts';
import { NodeTree } from '../nodeTree/NodeTree.tsx';
import { ASSET_DRAG_TYPE, type NodeItem } from '../nodeTree/treeState.ts';
import { connectivityCell, labelsCell, nodesDisplayCell } from './assetColumns.tsx';
import { PlatformPicker } from './PlatformPicker.tsx';
import { createPath } from './recentPlatforms.ts';
import { TreeSplit, treeHeight } from './TreeSplit.tsx';
import { useAssetActions } from './useAssetActions.tsx';

export interface AssetTreeTableProps {
  /** The list API of the tab (`/api/v1/assets/hosts/`…). */
  url: string;
  /** The tab's category; none on "All". */
  category?: string;
}

const detailPaths = resourcePaths('/console/assets/assets');
const SHOW_CURRENT = 'show_current_asset';

/** One tab of the asset list: the node tree beside the table; a selected node filters the table. */
export function AssetTreeTable({ url, category }: AssetTreeTableProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const orgId = useAppStore((s) => s.currentOrg?.id ?? '');
  const held = useAppStore((s) => s.perms);
  const [node, setNode] = useState<NodeItem | null>(null);
  const [showCurrent, setShowCurrentState] = useState(() => getCookie(SHOW_CURRENT) === '1');
  const [picker, setPicker] = useState(false);
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const actions = useAssetActions(url, () => setPicker(true));

  const setShowCurrent = (v: boolean) => {
    setShowCurrentState(v);
    setCookie(SHOW_CURRENT, v ? '1' : '0', { maxAge: 86400 * 365 });
  };
  const extraQuery = useMemo(
    () =>
      node ? { [category ? 'node_id' : 'node']: node.id, show_current_asset: showCurrent ? '1' : '0' } : undefined,
    [node, showCurrent, category],
  );
  const may = (p: string) => hasPermission(held, p);

  return (
    <TreeSplit
      tree={
        <NodeTree
          orgKey={orgId}
          selectedKey={node?.key}
          onSelect={setNode}
          perms={{
            inRootOrg: orgId === ROOT_ORG_ID,
            addNode: may('assets.add_node'),
            changeNode: may('assets.change_node'),
            deleteNode: may('assets.delete_node'),
            changeAssets: may('assets.change_assetnodes'),
          }}
          selectedAssetIds={selectedIds}
          showCurrent={showCurrent}
          onShowCurrentChange={setShowCurrent}
          onAssetsChanged={() => void queryClient.invalidateQueries({ queryKey: ['resource-list', url] })}
          height={treeHeight()}
        />
      }
    >
      <ResourceList
        url={url}
        name={category ? `AssetList-${category}` : 'AssetList'}
        urlQuery
        paths={detailPaths}
        extraQuery={extraQuery}
        columnsExclude={[
          'spec_info',
          'auto_config',
          'gathered_info',
          'accounts',
          'custom_info',
          'script',
          'username_selector',
          'password_selector',
          'submit_selector',
          'ca_cert',
          'client_cert',
          'client_key',
        ]}
        columnsShow={{
          default: ['name', 'address', 'platform', 'connectivity', 'actions'],
          min: ['name', 'actions'],
        }}
        columnsMeta={{
          connectivity: { formatter: connectivityCell, width: 110 },
          labels: { formatter: labelsCell },
          nodes_display: { formatter: nodesDisplayCell },
        }}
        headerActions={actions.headerActions}
        rowActions={actions.rowActions}
        onRow={(row, selected) =>
          ({
            draggable: true,
            'data-row-id': row.id,
            onDragStart: (e) => {
              const ids = selected.some((s) => s.id === row.id) ? selected.map((s) => s.id) : [row.id];
              e.dataTransfer.setData(ASSET_DRAG_TYPE, JSON.stringify(ids));
              e.dataTransfer.effectAllowed = 'copyMove';
            },
          }) as HTMLAttributes<HTMLElement>
        }
        onSelectionChange={(rows) => setSelectedIds(rows.map((r) => r.id))}
      />
      <PlatformPicker
        open={picker}
        category={category}
        onClose={() => setPicker(false)}
        onPick={(p) => {
          setPicker(false);
          navigate(createPath(p.category, p.id, node?.id));
        }}
      />
    </TreeSplit>
  );
}
