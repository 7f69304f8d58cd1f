import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Language } from '@gatehouse/contract';
import { am, type AnsibleMessage } from './ansibleMessages.ts';
import { yamlTasks, type YamlMapping } from './yamlWalk.ts';

/**
 * The first wall (docs/ops.md, "Ansible"): a playbook is read before it runs, and refused when
 * anything in it would run on, or read from, the Gatehouse host instead of the assets — local
 * connections and delegation, lookups (they run on the controller), files taken from outside the
 * playbook's folder, custom modules, plugins and ansible.cfg, the account's secret variables, Python
 * internals in templates. YAML is read structurally (yaml_nodes.py, Python's yaml that ansible-core
 * brings: Ansible's own reader) and every file is also scanned as text, because Jinja hides in
 * strings. It is a strict list, not a proof: the second wall (isolation.ts) holds if it misses.
 */

export interface Finding {
  code: AnsibleMessage;
  params: Record<string, string>;
  /** Relative to the playbook's folder. */
  file: string;
  line: number;
}

export type CheckResult = { ok: true } | { ok: false; finding: Finding };

export const CHECK_MAX_FILES = 2000;
export const CHECK_MAX_BYTES = 50 * 1024 * 1024;

const YAML_NODES = path.join(import.meta.dirname, 'plugins', 'yaml_nodes.py');
const PLUGIN_DIR = /^(library|module_utils|collections|ansible_collections|\w+_plugins)$/i;
const CFG_FILE = /^\.?ansible\.cfg$/i;
const YAML_FILE = /\.(ya?ml|json)$/i;

/** Text rules, on every line of YAML files and inside the Jinja blocks of any file. */
const TEXT_RULES: { re: RegExp; code: AnsibleMessage; name: (m: RegExpExecArray) => string }[] = [
  { re: /\b(lookup|query|q)\s*\(\s*['"]?([\w.]*)/, code: 'check_lookup', name: (m) => m[2] || m[1]! },
  // Dunders, the attr filter (also by name, as in map('attr', ...)), and underscores glued on by `~`.
  {
    re: /__\w+__|\battr\s*\(|\|\s*attr\b|['"]attr['"]|['"]_+\w*['"]\s*~|~\s*['"]\w*_+['"]/,
    code: 'check_python_internals',
    name: (m) => m[0],
  },
  {
    re: /\b(ansible_(?:ssh_)?pass(?:word)?|ansible_become_pass(?:word)?|ansible_(?:ssh_)?private_key_file|hostvars|varnames)\b|\bvars\s*[[.]/,
    code: 'check_secret_var',
    name: (m) => m[0],
  },
  {
    re: /\bansible_(connection|ssh_common_args|ssh_extra_args|ssh_args|ssh_executable|scp_extra_args|sftp_extra_args)\b/i,
    code: 'check_connection_var',
    name: (m) => m[0],
  },
];

const JINJA = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function scanText(text: string, file: string, wholeText: boolean): Finding | undefined {
  const regions: { text: string; at: number }[] = wholeText
    ? [{ text, at: 0 }]
    : [...text.matchAll(JINJA)].map((m) => ({ text: m[0], at: m.index }));
  for (const r of regions)
    for (const rule of TEXT_RULES) {
      const m = rule.re.exec(r.text);
      if (m) return { code: rule.code, params: { name: rule.name(m) }, file, line: lineOf(text, r.at + m.index) };
    }
  return undefined;
}

interface Walked {
  files: string[];
  finding?: Finding;
}

function walk(root: string): Walked {
  const files: string[] = [];
  let count = 0;
  let bytes = 0;
  const tooBig = (): Finding => ({
    code: 'check_too_big',
    params: { max: String(CHECK_MAX_FILES), size: String(CHECK_MAX_BYTES / 1024 / 1024) },
    file: '.',
    line: 0,
  });
  const visit = (dir: string): Finding | undefined => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(root, abs);
      if (++count > CHECK_MAX_FILES) return tooBig();
      if (!e.isDirectory() && !e.isFile()) return { code: 'check_symlink', params: { path: rel }, file: rel, line: 0 };
      if (CFG_FILE.test(e.name) || (e.isDirectory() && PLUGIN_DIR.test(e.name)))
        return { code: 'check_plugin_dir', params: { path: rel }, file: rel, line: 0 };
      if (e.isDirectory()) {
        const f = visit(abs);
        if (f) return f;
      } else {
        bytes += fs.statSync(abs).size;
        if (bytes > CHECK_MAX_BYTES) return tooBig();
        files.push(rel);
      }
    }
    return undefined;
  };
  return { files, finding: visit(root) };
}

type Parsed = Record<string, { docs?: unknown[]; error?: string; line?: number }>;

function parseYaml(files: string[]): Promise<Parsed> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      '/usr/bin/python3',
      [YAML_NODES],
      { env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' }, timeout: 30_000, maxBuffer: 256 * 1024 * 1024 },
      (err, stdout) => {
        if (err) return reject(err);
        try {
          resolve(JSON.parse(stdout) as Parsed);
        } catch (e) {
          reject(e as Error);
        }
      },
    );
    child.stdin!.end(JSON.stringify(files));
  });
}

/** Which YAML files Ansible may load as data: by extension, and anything in host_vars/group_vars. */
function isYaml(rel: string): boolean {
  return YAML_FILE.test(rel) || /(^|\/)(host_vars|group_vars)\//.test(rel);
}

/** Reads every file of the playbook's folder `dir`; the first reason to refuse it, if any. */
export async function checkPlaybook(dir: string, entry = 'main.yml'): Promise<CheckResult> {
  const root = fs.realpathSync(dir);
  const walked = walk(root);
  if (walked.finding) return { ok: false, finding: walked.finding };
  for (const rel of walked.files) {
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    const f = scanText(text, rel, isYaml(rel));
    if (f) return { ok: false, finding: f };
  }
  const yamlFiles = walked.files.filter(isYaml);
  if (!yamlFiles.includes(entry) && fs.existsSync(path.join(root, entry))) yamlFiles.push(entry);
  let parsed: Parsed;
  try {
    parsed = await parseYaml(yamlFiles.map((f) => path.join(root, f)));
  } catch (e) {
    return {
      ok: false,
      finding: { code: 'check_yaml', params: { detail: (e as Error).message }, file: entry, line: 0 },
    };
  }
  for (const rel of yamlFiles) {
    const r = parsed[path.join(root, rel)];
    if (!r) continue;
    if (r.error) {
      if (YAML_FILE.test(rel) || r.error === 'too many YAML nodes')
        return {
          ok: false,
          finding: { code: 'check_yaml', params: { detail: r.error }, file: rel, line: r.line ?? 0 },
        };
      continue;
    }
    const f = yamlTasks(r.docs ?? [], (m: YamlMapping, code, params) => ({ code, params, file: rel, line: m.line }));
    if (f) return { ok: false, finding: f };
  }
  return { ok: true };
}

/** "The playbook was refused before it ran: <reason> (<file>, line <n>)" in `lang`. */
export function findingText(lang: Language, f: Finding): string {
  return am(lang, 'refused', { reason: am(lang, f.code, f.params), file: f.file, line: f.line });
}
