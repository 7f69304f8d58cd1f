import fs from 'node:fs';
import path from 'node:path';

/**
 * Where playbooks live on disk: DATA_DIR/playbooks/<id>/, one folder per playbook, `main.yml` its
 * entry file. Uploads are unpacked into a staging folder beside them (`.staging-<uuid>`, same file
 * system) and renamed into place once the row exists, so a failed create leaves neither.
 */
export const ENTRY_FILE = 'main.yml';
export const BLANK_ENTRY = `- hosts: all\n  gather_facts: false\n  tasks:\n    - name: Hello\n      ansible.builtin.shell:\n        cmd: echo hello\n`;

const ID = /^[0-9a-f-]{36}$/;

export function playbooksRoot(dataDir: string): string {
  return path.join(dataDir, 'playbooks');
}

export function playbookDir(dataDir: string, id: string): string {
  if (!ID.test(id)) throw new Error(`not a playbook id: ${id}`);
  return path.join(playbooksRoot(dataDir), id);
}

/** A new staging folder for an upload (0700). */
export function stagingDir(dataDir: string, token: string): string {
  const root = playbooksRoot(dataDir);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const dir = path.join(root, `.staging-${token}`);
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** Whether the playbook's entry file exists as a regular file (a playbook job needs it before it runs). */
export function playbookEntryExists(dataDir: string, id: string, entry = ENTRY_FILE): boolean {
  try {
    return fs.lstatSync(path.join(playbookDir(dataDir, id), entry)).isFile();
  } catch {
    return false;
  }
}

export function removePlaybookDir(dataDir: string, id: string): void {
  fs.rmSync(playbookDir(dataDir, id), { recursive: true, force: true });
}
