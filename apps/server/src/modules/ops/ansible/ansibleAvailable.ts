import fs from 'node:fs';
import path from 'node:path';
import type { Language } from '@gatehouse/contract';
import { am } from './ansibleMessages.ts';

/**
 * Whether `ansible-playbook` is installed on this host. Gatehouse starts without it (the README's
 * start command needs no Ansible); the engine and the console ask here and say plainly what is
 * missing (`ansibleMissingMessage`). Looked up on the runner's PATH, the one `spawn` uses.
 */
export const RUNNER_PATH = '/usr/local/bin:/usr/bin:/bin';

export function findExecutable(name: string, searchPath = RUNNER_PATH): string | undefined {
  for (const dir of searchPath.split(':')) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export function ansibleAvailable(): boolean {
  return findExecutable('ansible-playbook') !== undefined;
}

/** "Ansible is not installed on this Gatehouse host: ..." in the reader's language. */
export function ansibleMissingMessage(lang: Language): string {
  return am(lang, 'ansible_missing');
}
