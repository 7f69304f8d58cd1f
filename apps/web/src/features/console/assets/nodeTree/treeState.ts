/**
 * The node tree's data (zTree JSON → antd Tree data), kept immutable: roots,
 * children loaded per key, exact counts from the server's "value (n)" names.
 */

/** One zTree item as the tree API returns it. */
export interface ZTreeItem {
  id: string;
  name: string;
  pId?: string;
  isParent?: boolean;
  open?: boolean;
  meta?: { type?: string; data?: { id?: string; key?: string; value?: string } };
}

export interface NodeItem {
  /** The node key (`1:2:3`): the tree's key. */
  key: string;
  /** The node's uuid. */
  id: string;
  value: string;
  count: number;
  parentKey: string;
  /** Undefined until loaded. */
  children?: NodeItem[];
}

/** The count at the end of a tree name: `"web (12)"` → 12. */
export function countOf(name: string): number {
  const m = /\((\d+)\)\s*$/.exec(name);
  return m ? Number(m[1]) : 0;
}

/** `1:2:3` → `['1', '1:2', '1:2:3']`. */
export function ancestorKeys(key: string): string[] {
  const parts = key.split(':');
  return parts.map((_, i) => parts.slice(0, i + 1).join(':'));
}

export function toNodeItem(z: ZTreeItem): NodeItem {
  const d = z.meta?.data ?? {};
  return {
    key: d.key ?? z.id,
    id: d.id ?? z.id,
    value: d.value ?? z.name.replace(/\s*\(\d+\)\s*$/, ''),
    count: countOf(z.name),
    parentKey: z.pId ?? '',
  };
}

/** Node items of a tree answer (assets dropped), sorted as the server sends them. */
export function nodeItems(rows: ZTreeItem[]): NodeItem[] {
  return rows.filter((r) => (r.meta?.type ?? 'node') === 'node').map(toNodeItem);
}

/**
 * The first answer (no key): the roots (those whose parent is not in the answer) with their
 * children attached. A root that says it has children but came without them (a granted tree answers
 * one level) is left to load when expanded.
 */
export function initialTree(rows: ZTreeItem[]): NodeItem[] {
  const items = nodeItems(rows);
  const keys = new Set(items.map((i) => i.key));
  const parents = new Set(rows.filter((r) => r.isParent).map((r) => r.meta?.data?.key ?? r.id));
  const roots = items.filter((i) => !keys.has(i.parentKey));
  return roots.map((r) => {
    const children = items.filter((i) => i.parentKey === r.key);
    return { ...r, children: children.length || !parents.has(r.key) ? children : undefined };
  });
}

export function findNode(tree: NodeItem[], key: string): NodeItem | undefined {
  for (const n of tree) {
    if (n.key === key) return n;
    if (n.children && key.startsWith(`${n.key}:`)) {
      const found = findNode(n.children, key);
      if (found) return found;
    }
  }
  return undefined;
}

function mapNode(tree: NodeItem[], key: string, fn: (n: NodeItem) => NodeItem): NodeItem[] {
  return tree.map((n) => {
    if (n.key === key) return fn(n);
    if (n.children && key.startsWith(`${n.key}:`)) return { ...n, children: mapNode(n.children, key, fn) };
    return n;
  });
}

/**
 * Puts freshly loaded children under `key`, keeping the grandchildren already loaded for children
 * whose key did not change.
 */
export function setChildren(tree: NodeItem[], key: string, children: NodeItem[]): NodeItem[] {
  return mapNode(tree, key, (n) => {
    const old = new Map((n.children ?? []).map((c) => [c.key, c]));
    return { ...n, children: children.map((c) => ({ ...c, children: old.get(c.key)?.children })) };
  });
}

/** Replaces a node's own fields (value, count), keeping its children. */
export function patchNode(
  tree: NodeItem[],
  key: string,
  patch: Partial<Pick<NodeItem, 'value' | 'count'>>,
): NodeItem[] {
  return mapNode(tree, key, (n) => ({ ...n, ...patch }));
}

/** The keys whose children are loaded, parents before children (the order to reload them in). */
export function loadedKeys(tree: NodeItem[]): string[] {
  const out: string[] = [];
  const walk = (ns: NodeItem[]) => {
    for (const n of ns) {
      if (n.children) {
        out.push(n.key);
        walk(n.children);
      }
    }
  };
  walk(tree);
  return out;
}

/** Keys that no longer exist in the tree (e.g. after a move) are dropped from a key list. */
export function keepExisting(tree: NodeItem[], keys: string[]): string[] {
  return keys.filter((k) => findNode(tree, k));
}

/** The MIME type of dragged table rows: a JSON list of asset ids. */
export const ASSET_DRAG_TYPE = 'application/x-gatehouse-assets';

/** Whether a drag of `source` onto `target` is a legal node move (not onto itself or below itself). */
export function canMoveNode(source: NodeItem, target: NodeItem): boolean {
  return (
    source.parentKey !== '' &&
    source.key !== target.key &&
    !target.key.startsWith(`${source.key}:`) &&
    source.parentKey !== target.key
  );
}
