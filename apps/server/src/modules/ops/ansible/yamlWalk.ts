import type { AnsibleMessage } from './ansibleMessages.ts';

/**
 * The structural rules of the playbook check (playbookCheck.ts), applied to every mapping of every
 * YAML document (plays, tasks, blocks, handlers, vars files, roles' files alike: a rule does not
 * need to know where it is). Documents come from yaml_nodes.py: a mapping is
 * `{__gh_line__, __gh_pairs__: [[key, value]...]}`, scalars are strings.
 */

export interface YamlMapping {
  line: number;
  pairs: [string, unknown][];
}

type Report<F> = (m: YamlMapping, code: AnsibleMessage, params: Record<string, string>) => F;

function asMapping(v: unknown): YamlMapping | undefined {
  if (v && typeof v === 'object' && !Array.isArray(v) && '__gh_pairs__' in v) {
    const o = v as { __gh_line__: number; __gh_pairs__: [string, unknown][] };
    return { line: o.__gh_line__, pairs: o.__gh_pairs__ };
  }
  return undefined;
}

const SAFE_CONNECTIONS = new Set(['ssh', 'smart']);
const CONNECTION_VARS =
  /^ansible_(connection|host|ssh_host|port|ssh_port|user|ssh_user|password|ssh_pass|ssh_password|private_key_file|ssh_private_key_file|ssh_common_args|ssh_extra_args|ssh_args|scp_extra_args|sftp_extra_args|ssh_executable|sshpass_prompt|shell_executable|pipelining)$/i;
const LOCAL_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|::1|0\.0\.0\.0|ip6-localhost)$/i;
/** `with_<lookup>` loops that only walk data given in the playbook. */
const PURE_LOOPS = new Set([
  'with_items',
  'with_list',
  'with_dict',
  'with_indexed_items',
  'with_together',
  'with_nested',
  'with_cartesian',
  'with_flattened',
  'with_sequence',
  'with_subelements',
  'with_random_choice',
]);
/** Modules whose paths are read (or, for fetch, written) on the Gatehouse host, and those keys. */
const CONTROLLER_FILES: Record<string, string[]> = {
  copy: ['src'],
  template: ['src'],
  win_copy: ['src'],
  win_template: ['src'],
  unarchive: ['src'],
  assemble: ['src'],
  patch: ['src'],
  script: ['cmd', '_raw_params'],
  win_script: ['cmd', '_raw_params'],
  fetch: ['dest'],
  include_vars: ['file', 'dir', '_raw_params'],
  import_tasks: ['file', '_raw_params'],
  include_tasks: ['file', '_raw_params'],
  include: ['_raw_params'],
  import_playbook: ['_raw_params'],
  import_role: ['name', 'tasks_from', 'vars_from', 'defaults_from', 'handlers_from'],
  include_role: ['name', 'tasks_from', 'vars_from', 'defaults_from', 'handlers_from'],
};
const VARS_MODULES = new Set(['include_vars']);
const REFUSED_MODULES = new Set(['synchronize', 'local_action', 'add_host', 'group_by']);
const PLUGIN_KEYS = new Set(['debugger', 'strategy']);
const SAFE_STRATEGIES = new Set(['linear', 'free', 'host_pinned']);

function playTargetsController(value: unknown): boolean {
  const patterns = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  return patterns.some(
    (p) =>
      /\{\{|\{%/.test(p) ||
      p
        .split(/[,:&!\s]+/)
        .map((x) => x.replace(/^[~]/, '').trim())
        .some((x) => LOCAL_HOSTS.test(x) || /localhost|^127\./i.test(x)),
  );
}

function shortName(key: string): string {
  return key.replace(/^(ansible\.(builtin|legacy|windows|posix)|community\.general)\./, '');
}

function truthy(v: unknown): boolean {
  return typeof v === 'string' && /^(true|yes|on|1|y)$/i.test(v.trim());
}

/** A path Ansible reads from the playbook's folder: relative, no `..`, no `~`, no template. */
function outsideWorkspace(p: string): boolean {
  const s = p.trim();
  if (!s) return false;
  if (/\{\{|\{%/.test(s)) return true;
  if (s.startsWith('/') || s.startsWith('~') || s.startsWith('\\') || /^[A-Za-z]:/.test(s)) return true;
  return s.split(/[\\/]/).includes('..');
}

/** The paths of a module's arguments: a mapping's keys, or a free-form string (`src=x dest=y`, or the first word). */
function modulePaths(value: unknown, keys: string[]): string[] {
  const m = asMapping(value);
  if (m)
    return m.pairs
      .filter(([k, v]) => keys.includes(k) && typeof v === 'string')
      .map(([k, v]) => firstWord(k, v as string));
  if (typeof value !== 'string') return [];
  const pairs = [...value.matchAll(/(\w+)=("[^"]*"|'[^']*'|\S+)/g)].map((x) => [
    x[1]!,
    x[2]!.replace(/^["']|["']$/g, ''),
  ]);
  const named = pairs.filter(([k]) => keys.includes(k!)).map(([, v]) => v!);
  if (named.length) return named;
  return keys.includes('_raw_params') || keys.includes('name') ? [value.trim().split(/\s+/)[0] ?? ''] : [];
}

function firstWord(key: string, v: string): string {
  return key === 'cmd' || key === '_raw_params' ? (v.trim().split(/\s+/)[0] ?? '') : v;
}

function checkMapping<F>(m: YamlMapping, report: Report<F>): F | undefined {
  const get = (k: string) => m.pairs.find(([key]) => key === k)?.[1];
  const remoteSrc = truthy(get('remote_src'));
  for (const [key, value] of m.pairs) {
    const k = key.trim();
    const lower = k.toLowerCase();
    const str = typeof value === 'string' ? value.trim() : undefined;
    if (lower === 'connection' && str !== undefined && !SAFE_CONNECTIONS.has(str.toLowerCase()))
      return report(m, 'check_connection_local', { value: str });
    if (CONNECTION_VARS.test(k)) return report(m, 'check_connection_var', { name: k });
    // A play on `localhost` is Ansible's implicit localhost: connection local on the Gatehouse host.
    if (lower === 'hosts' && playTargetsController(value))
      return report(m, 'check_hosts_local', { value: String(value) });
    if (lower === 'delegate_to' || lower === 'delegate_facts') {
      const v = str ?? '';
      return report(m, LOCAL_HOSTS.test(v) || v.includes('{{') ? 'check_delegate_local' : 'check_delegate', {
        value: v,
      });
    }
    const short = shortName(k);
    if (REFUSED_MODULES.has(short))
      return report(m, short === 'local_action' ? 'check_local_action' : 'check_plugin_key', { name: k });
    if (lower.startsWith('with_') && !PURE_LOOPS.has(lower)) return report(m, 'check_loop_lookup', { name: k });
    if (PLUGIN_KEYS.has(lower) && !(lower === 'strategy' && str && SAFE_STRATEGIES.has(str)))
      return report(m, 'check_plugin_key', { name: `${k}: ${str ?? ''}` });
    if (lower === 'vars_files') {
      const list = Array.isArray(value) ? value : [value];
      for (const p of list.flat())
        if (typeof p === 'string' && outsideWorkspace(p)) return report(m, 'check_vars_outside', { path: p });
    }
    if (lower === 'role' && str !== undefined && outsideWorkspace(str))
      return report(m, 'check_vars_outside', { path: str });
    if (lower === 'roles' && Array.isArray(value))
      for (const r of value)
        if (typeof r === 'string' && outsideWorkspace(r)) return report(m, 'check_vars_outside', { path: r });
    const keys = CONTROLLER_FILES[short];
    if (keys && !(remoteSrc && ['copy', 'unarchive', 'assemble', 'win_copy'].includes(short))) {
      const args = asMapping(get('args'));
      const paths = [...modulePaths(value, keys), ...(args ? modulePaths(args, keys) : [])];
      for (const p of paths)
        if (outsideWorkspace(p))
          return report(m, VARS_MODULES.has(short) ? 'check_vars_outside' : 'check_controller_file', {
            module: short,
            path: p,
          });
    }
  }
  return undefined;
}

/** Walks every mapping of `docs`; the first finding, if any. */
export function yamlTasks<F>(docs: unknown[], report: Report<F>): F | undefined {
  const stack: unknown[] = [...docs];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    const m = asMapping(v);
    if (!m) continue;
    const f = checkMapping(m, report);
    if (f) return f;
    for (const [, value] of m.pairs) stack.push(value);
  }
  return undefined;
}
