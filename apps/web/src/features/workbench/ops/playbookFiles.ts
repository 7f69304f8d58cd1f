import { http } from '../../../lib/http.ts';
import { OPS } from './jobsApi.ts';

/** One entry of a playbook's workspace (`ops/playbook/<id>/file/`, zTree nodes): `id` is its path. */
export interface FileItem {
  id: string;
  name: string;
  pId?: string;
  isParent?: boolean;
}

export interface FileNode {
  key: string;
  name: string;
  isDir: boolean;
  children?: FileNode[];
}

/** The workspace's root entry (the playbook itself) has this id; the files sit under it. */
export const ROOT = 'root';

/** The flat answer nested by `pId`; the root entry is dropped (its children are the top). */
export function fileTree(items: FileItem[]): FileNode[] {
  const nodes = new Map<string, FileNode>();
  for (const i of items)
    if (i.id !== ROOT)
      nodes.set(i.id, { key: i.id, name: i.name, isDir: Boolean(i.isParent), ...(i.isParent ? { children: [] } : {}) });
  const top: FileNode[] = [];
  for (const i of items) {
    const n = nodes.get(i.id);
    if (!n) continue;
    const parent = i.pId ? nodes.get(i.pId) : undefined;
    if (parent?.children) parent.children.push(n);
    else top.push(n);
  }
  const sort = (xs: FileNode[]): FileNode[] =>
    xs
      .sort((a, b) => Number(b.isDir) - Number(a.isDir) || a.name.localeCompare(b.name))
      .map((x) => (x.children ? { ...x, children: sort(x.children) } : x));
  return sort(top);
}

/** The file to open first: `main.yml` at the top, else the shallowest file (the top level first). */
export function firstFile(tree: FileNode[]): string | undefined {
  const main = tree.find((n) => !n.isDir && /^main\.ya?ml$/.test(n.name));
  if (main) return main.key;
  const file = tree.find((n) => !n.isDir);
  if (file) return file.key;
  for (const dir of tree) {
    const inner = dir.children && firstFile(dir.children);
    if (inner) return inner;
  }
  return undefined;
}

/** The directory a new entry goes into: the selected directory, or the selected file's directory. */
export function parentDir(tree: FileNode[], selected: string | undefined): string {
  if (!selected) return '';
  const find = (xs: FileNode[]): FileNode | undefined => {
    for (const x of xs) {
      if (x.key === selected) return x;
      const inner = x.children && find(x.children);
      if (inner) return inner;
    }
    return undefined;
  };
  const n = find(tree);
  if (n?.isDir) return n.key;
  const i = selected.lastIndexOf('/');
  return i > 0 ? selected.slice(0, i) : '';
}

/** Whether `key` is a folder of the tree. */
export function isDirIn(tree: FileNode[], key: string): boolean {
  for (const x of tree) {
    if (x.key === key) return x.isDir;
    if (x.children && isDirIn(x.children, key)) return true;
  }
  return false;
}

const url = (id: string) => `${OPS}/playbook/${encodeURIComponent(id)}/file/`;

export const playbookFiles = {
  tree: (id: string, expand = '') => http.get<FileItem[]>(url(id), { params: expand ? { expand } : {} }),
  read: (id: string, key: string) => http.get<{ content: string }>(url(id), { params: { key } }),
  create: (id: string, body: { key: string; name: string; is_directory: boolean; content: string }) =>
    http.post<FileItem>(url(id), body),
  save: (id: string, key: string, content: string) =>
    http.patch<FileItem>(url(id), { key, content, is_directory: false }),
  rename: (id: string, key: string, newName: string, isDir: boolean) =>
    http.patch<FileItem>(url(id), { key, new_name: newName, is_directory: isDir }),
  remove: (id: string, key: string) => http.delete<void>(url(id), { params: { key } }),
};
