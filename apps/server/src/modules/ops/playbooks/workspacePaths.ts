import fs from 'node:fs';
import path from 'node:path';

/**
 * Paths of the playbook file browser, confined to the playbook's folder: a key is a relative path
 * (`roles/web/tasks/main.yml`), `root` or empty for the folder itself. Refused: absolute paths,
 * `..`, backslashes, NUL; and after resolving, anything outside the folder or passing through a
 * symbolic link (the folder never holds one: uploads refuse them, the browser makes none).
 */

export class BadKey extends Error {}

export interface Resolved {
  /** Absolute path inside the folder. */
  abs: string;
  /** `/`-separated path relative to the folder ('' for the folder). */
  rel: string;
}

export function resolveKey(root: string, key: unknown): Resolved {
  if (typeof key !== 'string') throw new BadKey(String(key));
  let k = key.trim();
  if (k === 'root') k = '';
  if (k.startsWith('root/')) k = k.slice(5);
  if (k.includes('\\') || k.includes('\0') || k.startsWith('/') || /^[A-Za-z]:/.test(k)) throw new BadKey(key);
  const parts = k.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new BadKey(key);
  const base = path.resolve(root);
  const abs = path.resolve(base, ...parts);
  if (abs !== base && !abs.startsWith(base + path.sep)) throw new BadKey(key);
  let at = base;
  for (const p of parts) {
    at = path.join(at, p);
    try {
      if (fs.lstatSync(at).isSymbolicLink()) throw new BadKey(key);
    } catch (e) {
      if (e instanceof BadKey) throw e;
      break; // the rest does not exist yet
    }
  }
  return { abs, rel: parts.join('/') };
}

/** A file or folder name given on its own: no separator, not `.` or `..`, not empty. */
export function validName(name: string): boolean {
  return !!name && name.length <= 255 && !/[\\/\0]/.test(name) && name !== '.' && name !== '..';
}

export interface TreeNode {
  id: string;
  name: string;
  title: string;
  iconSkin: string;
  isParent: boolean;
  open: boolean;
  pId: string;
  temp: boolean;
}

/** The folder as the console's tree wants it (as the original: root first, folders then files, `main.yml` first). */
export function workspaceTree(root: string, rootName: string, expand: string, entry: string): TreeNode[] {
  const nodes: TreeNode[] = [
    { id: 'root', name: rootName, title: rootName, iconSkin: '', isParent: true, open: true, pId: '', temp: false },
  ];
  const visit = (dir: string, rel: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() || e.isFile());
    const byName = (a: fs.Dirent, b: fs.Dirent) =>
      rel === '' && a.name === entry ? -1 : rel === '' && b.name === entry ? 1 : a.name.localeCompare(b.name);
    const dirs = entries.filter((e) => e.isDirectory()).sort(byName);
    const files = entries.filter((e) => e.isFile()).sort(byName);
    const pId = rel || 'root';
    for (const d of dirs) {
      const id = rel ? `${rel}/${d.name}` : d.name;
      nodes.push({
        id,
        name: d.name,
        title: d.name,
        iconSkin: '',
        isParent: true,
        open: id === expand,
        pId,
        temp: false,
      });
      visit(path.join(dir, d.name), id);
    }
    for (const f of files) {
      const id = rel ? `${rel}/${f.name}` : f.name;
      nodes.push({ id, name: f.name, title: f.name, iconSkin: 'file', isParent: false, open: false, pId, temp: false });
    }
  };
  visit(root, '');
  const first = nodes.findIndex((n) => n.id === entry);
  if (first > 1) nodes.splice(1, 0, ...nodes.splice(first, 1));
  return nodes;
}

/** How many files and folders the folder holds. */
export function countEntries(root: string): number {
  let n = 0;
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      n++;
      if (e.isDirectory()) visit(path.join(dir, e.name));
    }
  };
  visit(root);
  return n;
}
