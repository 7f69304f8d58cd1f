import { useMemo, useState } from 'react';
import { useAppStore } from '../../../../lib/appStore.ts';
import { ResourceList, type ResourceListProps } from '../../../../resource/ResourceList.tsx';
import { TreeSplit, treeHeight } from '../assetList/TreeSplit.tsx';
import { BrowseTree } from './BrowseTree.tsx';
import type { NodeItem } from './treeState.ts';
import type { NodeTreeSource } from './useNodeTree.ts';

export interface NodeTreeListProps {
  list: ResourceListProps;
  /** The query a selected node adds to the list (default `node_id`). */
  nodeParam?: string;
  /** Where the list goes when a node is selected (a granted tree lists `nodes/<id>/assets/`); default the same URL with `nodeParam`. */
  nodeUrl?(node: NodeItem): string;
  source?: NodeTreeSource;
  /** i18n key of the tree's heading. */
  treeTitle?: string;
  /** What the tree is reloaded for besides the organisation (e.g. the user whose grants are shown). */
  treeKey?: string;
  testId?: string;
}

/**
 * A list beside a browse-only node tree: selecting a node filters the list (or switches it to the
 * node's URL); selecting it again shows everything. The permission list, a user's granted assets and
 * the workbench's assets are this with their URLs.
 */
export function NodeTreeList({
  list,
  nodeParam = 'node_id',
  nodeUrl,
  source,
  treeTitle,
  treeKey,
  testId,
}: NodeTreeListProps) {
  const orgId = useAppStore((s) => s.currentOrg?.id ?? '');
  const [node, setNode] = useState<NodeItem | null>(null);
  const extraQuery = useMemo(
    () => (node && !nodeUrl ? { ...list.extraQuery, [nodeParam]: node.id } : list.extraQuery),
    [node, nodeUrl, nodeParam, list.extraQuery],
  );
  const url = node && nodeUrl ? nodeUrl(node) : list.url;
  return (
    <div data-testid={testId}>
      <TreeSplit
        tree={
          <BrowseTree
            orgKey={`${orgId}:${treeKey ?? ''}`}
            source={source}
            title={treeTitle ?? 'assetList.tree.title'}
            selectedKey={node?.key}
            onSelect={setNode}
            height={treeHeight()}
          />
        }
      >
        <ResourceList {...list} key={url} url={url} extraQuery={extraQuery} />
      </TreeSplit>
    </div>
  );
}
