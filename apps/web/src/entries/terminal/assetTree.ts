import type { TreeItem } from './lunaApi.ts';

/**
 * The granted tree as the page holds it: the server's zTree levels (nodes by key, assets under
 * their node's key) nested by `pId`. An asset can sit under several nodes and under Favourites,
 * so its tree key is `<parent>/<asset id>`; a node's is `n:<node key>`.
 */
export interface LunaNode {
  key: string;
  title: string;
  /** `k8s`: a namespace, pod or container of a Kubernetes asset (loaded with the asset's token). */
  kind: 'node' | 'asset' | 'k8s';
  /** The node key (to load its level), the asset id (to connect) or the k8s tree id (`namespace=..&pod=..`). */
  ref: string;
  /** A node's id (the node tree's `meta.data.id`: a uuid, or `favorite`/`ungrouped`), what a job targets. */
  nodeId?: string;
  /** An asset's platform type: a `k8s` asset opens into its cluster instead of connecting. */
  platformType?: string;
  k8s?: K8sRef;
  isLeaf: boolean;
  disabled?: boolean;
  address?: string;
  /** Undefined until loaded (nodes). */
  children?: LunaNode[];
}

/** Where a k8s tree node is, and the live token its level and its containers' tabs come from. */
export interface K8sRef {
  token: string;
  assetId: string;
  namespace?: string;
  pod?: string;
  container?: string;
}

function toNode(i: TreeItem): LunaNode {
  if (i.meta?.type === 'asset')
    return {
      key: `${i.pId ?? ''}/${i.id}`,
      title: i.name,
      kind: 'asset',
      ref: i.id,
      platformType: i.meta.data?.platform_type ?? '',
      isLeaf: i.meta.data?.platform_type !== 'k8s',
      disabled: i.chkDisabled === true,
      address: i.meta.data?.address ?? '',
    };
  return {
    key: `n:${i.id}`,
    title: i.name,
    kind: 'node',
    ref: i.id,
    nodeId: i.meta?.data?.id ?? i.id,
    isLeaf: i.isParent === false,
  };
}

/** One answer nested by `pId`: items whose parent is in the answer go under it (loaded), the rest are its top. */
export function nest(items: TreeItem[]): LunaNode[] {
  const nodes = items.map((i) => ({ item: i, node: toNode(i) }));
  const byId = new Map(nodes.filter((n) => n.node.kind === 'node').map((n) => [n.item.id, n.node]));
  const top: LunaNode[] = [];
  for (const { item, node } of nodes) {
    const parent = item.pId ? byId.get(item.pId) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else top.push(node);
  }
  return top;
}

/** A deep link's asset at the top of the tree (its own key: it may also sit under its nodes). */
export const pinnedAsset = (i: TreeItem): LunaNode => ({ ...toNode({ ...i, pId: 'link' }) });

/** One level of a Kubernetes tree under the tree node `parentKey` (a k8s asset or one of its nodes). */
export function k8sNodes(items: TreeItem[], parentKey: string, token: string, assetId: string): LunaNode[] {
  return items.map((i) => {
    const d = i.meta?.data ?? {};
    return {
      key: `${parentKey}|${i.id}`,
      title: i.name,
      kind: 'k8s',
      ref: i.id,
      isLeaf: i.isParent === false,
      k8s: {
        token,
        assetId,
        ...(d.namespace ? { namespace: d.namespace } : {}),
        ...(d.pod ? { pod: d.pod } : {}),
        ...(d.container ? { container: d.container } : {}),
      },
    };
  });
}

/** The container a k8s leaf opens, when it is one. */
export function containerOf(n: LunaNode): { namespace: string; pod: string; container: string } | undefined {
  const k = n.k8s;
  return n.kind === 'k8s' && k?.namespace && k.pod && k.container
    ? { namespace: k.namespace, pod: k.pod, container: k.container }
    : undefined;
}

/** The tree with the children of `key` set (immutable). */
export function withChildren(tree: LunaNode[], key: string, children: LunaNode[]): LunaNode[] {
  return tree.map((n) =>
    n.key === key
      ? { ...n, children, isLeaf: children.length === 0 }
      : n.children
        ? { ...n, children: withChildren(n.children, key, children) }
        : n,
  );
}

export function findNode(tree: LunaNode[], key: string): LunaNode | undefined {
  for (const n of tree) {
    if (n.key === key) return n;
    const inner = n.children && findNode(n.children, key);
    if (inner) return inner;
  }
  return undefined;
}

/** Keys of the nodes loaded so far (antd's `loadedKeys`). */
export function loadedKeys(tree: LunaNode[]): string[] {
  return tree.flatMap((n) => (n.children ? [n.key, ...loadedKeys(n.children)] : []));
}

/** Search results: the matching assets, flat. */
export const searchResults = (items: TreeItem[]): LunaNode[] =>
  items.filter((i) => i.meta?.type === 'asset').map((i) => ({ ...toNode({ ...i, pId: 'search' }) }));

/** The Favourites node's key in the tree (the server's special node `favorite`). */
export const FAVORITE_KEY = 'n:favorite';

/**
 * The tree after the favourites changed: the Favourites node takes its new title (with the count)
 * from a fresh top level, and its children when it had been loaded (else it loads when opened).
 */
export function withFavorites(tree: LunaNode[], top: LunaNode[], children: LunaNode[] | undefined): LunaNode[] {
  const fresh = top.find((n) => n.key === FAVORITE_KEY);
  if (!fresh) return tree;
  return tree.map((n) =>
    n.key !== FAVORITE_KEY
      ? n
      : children
        ? { ...n, title: fresh.title, children, isLeaf: children.length === 0 }
        : { ...n, title: fresh.title, isLeaf: fresh.isLeaf, children: undefined },
  );
}
