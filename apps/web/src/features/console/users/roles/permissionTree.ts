/** A node of a permission tree as the server sends it (`permissions/tree/`). */
export interface PermissionNode {
  id: string;
  name: string;
  title: string;
  pId: string;
  isParent: boolean;
  checked: boolean;
  chkDisabled?: boolean;
  meta?: { type?: 'root' | 'app' | 'model' | 'perm' | string };
}

export interface PermissionTreeItem {
  key: string;
  title: string;
  /** The permission codename (leaves) or the node id (groups). */
  code: string;
  disabled: boolean;
  children?: PermissionTreeItem[];
}

const isLeaf = (n: PermissionNode) => !n.isParent;

/** The flat `pId` list as a nested tree, in the server's order. */
export function buildPermissionTree(nodes: readonly PermissionNode[]): PermissionTreeItem[] {
  const items = new Map<string, PermissionTreeItem>();
  for (const n of nodes)
    items.set(n.id, {
      key: n.id,
      title: n.name,
      code: n.title,
      disabled: Boolean(n.chkDisabled),
      ...(isLeaf(n) ? {} : { children: [] }),
    });
  const roots: PermissionTreeItem[] = [];
  for (const n of nodes) {
    const item = items.get(n.id)!;
    const parent = n.pId ? items.get(n.pId) : undefined;
    if (parent?.children) parent.children.push(item);
    else roots.push(item);
  }
  return roots;
}

/** The permission (leaf) ids the server marks as granted. */
export function checkedPermissionIds(nodes: readonly PermissionNode[]): string[] {
  return nodes.filter((n) => isLeaf(n) && n.checked).map((n) => n.id);
}

/** The permission ids to save: only leaves count (a ticked group stands for its leaves, already in the list). */
export function permissionIdsToSave(nodes: readonly PermissionNode[], checkedKeys: readonly string[]): number[] {
  const leaves = new Set(nodes.filter(isLeaf).map((n) => n.id));
  return [...new Set(checkedKeys)]
    .filter((k) => leaves.has(k))
    .map(Number)
    .sort((a, b) => a - b);
}

/** Whether the whole tree is read-only (builtin roles). */
export function treeReadOnly(nodes: readonly PermissionNode[]): boolean {
  return nodes.length > 0 && nodes.every((n) => n.chkDisabled);
}

const COUNT_SUFFIX = /\(\d+\/\d+\)$/;

/**
 * A group's title with its count of ticked permissions out of all below it, as ticked now: the
 * server's "Users(0/10)" is right only until the first tick. Leaves keep their title.
 */
export function liveTitle(item: PermissionTreeItem, checked: ReadonlySet<string>): string {
  if (!item.children) return item.title;
  let total = 0;
  let ticked = 0;
  const walk = (i: PermissionTreeItem) => {
    if (!i.children) {
      total++;
      if (checked.has(i.key)) ticked++;
    } else i.children.forEach(walk);
  };
  walk(item);
  return `${item.title.replace(COUNT_SUFFIX, '')}(${ticked}/${total})`;
}
