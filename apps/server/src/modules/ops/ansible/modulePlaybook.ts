import fs from 'node:fs';
import path from 'node:path';
import { unsafeYaml, type YamlValue } from './unsafeYaml.ts';

/**
 * A module of a job (`shell`, `win_shell`, `raw`, `python`...) as a one-task playbook of our own.
 * The command is tagged `!unsafe`, so Ansible runs it as written and never renders it: the job's
 * variables (`{{ name }}`) are put in here, and any other `{{ ... }}` stays text. `python` ships
 * the code as a script file of the run (`ansible.builtin.script` with `python3`), so it runs on the
 * asset, not on the Gatehouse host. Database modules need community collections that Debian's
 * ansible-core does not bring; they are refused per asset with the reason.
 */

const COLLECTION_ROOTS = ['/usr/share/ansible/collections', '/usr/lib/python3/dist-packages'];

export function collectionInstalled(name: string): boolean {
  const [ns, coll] = name.split('.');
  return COLLECTION_ROOTS.some((r) => fs.existsSync(path.join(r, 'ansible_collections', ns!, coll!)));
}

/** `{{ name }}` of the job's variables replaced by their values; other braces left as they are. */
export function fillVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? variables[name]! : whole,
  );
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const DB_COLLECTIONS: Record<string, string> = {
  mysql: 'community.mysql',
  mariadb: 'community.mysql',
  postgresql: 'community.postgresql',
  sqlserver: 'community.general',
  oracle: 'community.general',
};

export type ModulePlaybook =
  { ok: true; playbook: string; files: Record<string, string> } | { ok: false; detail: string };

export function modulePlaybook(
  module: string,
  args: string,
  o: { chdir: string; variables: Record<string, string> },
): ModulePlaybook {
  const cmd = fillVariables(args, o.variables);
  const chdir = o.chdir ? { chdir: o.chdir } : {};
  let task: Record<string, YamlValue>;
  const files: Record<string, string> = {};
  switch (module) {
    case 'shell':
      task = { 'ansible.builtin.shell': { cmd, ...chdir } };
      break;
    case 'raw':
      task = { 'ansible.builtin.raw': o.chdir ? `cd ${shellQuote(o.chdir)} && ${cmd}` : cmd };
      break;
    case 'python':
      files['script.py'] = cmd;
      task = { 'ansible.builtin.script': { cmd: 'script.py', executable: 'python3', ...chdir } };
      break;
    case 'win_shell':
      if (!collectionInstalled('ansible.windows'))
        return { ok: false, detail: 'it needs the Ansible collection ansible.windows, which is not installed here' };
      task = { 'ansible.windows.win_shell': cmd, args: chdir };
      break;
    default: {
      const coll = DB_COLLECTIONS[module];
      if (!coll) return { ok: false, detail: 'Gatehouse does not know this module' };
      if (!collectionInstalled(coll))
        return { ok: false, detail: `it needs the Ansible collection ${coll}, which is not installed here` };
      return { ok: false, detail: 'database modules do not run through Ansible yet' };
    }
  }
  const playbook = unsafeYaml([
    { name: 'Gatehouse job', hosts: 'all', gather_facts: false, tasks: [{ name: module, ...task }] },
  ]);
  return { ok: true, playbook, files };
}
