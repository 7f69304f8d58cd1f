import fs from 'node:fs';
import path from 'node:path';
import { ansibleAvailable, RUNNER_PATH } from './ansibleAvailable.ts';
import { am } from './ansibleMessages.ts';
import { runAnsibleProcess, type AnsibleEvent } from './ansibleProcess.ts';
import { writeInventory, type HostRefusal } from './inventory.ts';
import { chooseIsolation, closeDataDir, hiddenPaths, isolatedCommand } from './isolation.ts';
import { modulePlaybook } from './modulePlaybook.ts';
import { checkPlaybook, findingText } from './playbookCheck.ts';
import { RunDir } from './runDir.ts';
import type { HostResult, Runner, RunnerPlan, RunnerWork } from '../engine/runner.ts';
import { unsafeYaml } from './unsafeYaml.ts';

/**
 * The Ansible runner of the execution engine (docs/ops.md, "Ansible"): playbooks, and modules as a
 * one-task playbook of our own, run by `ansible-playbook` as a child process under the isolation of
 * isolation.ts, with an inventory and secrets written for the run only (runDir.ts), results read
 * from our JSON-lines callback. Messages go to the engine in English (plans carry no language);
 * `ansibleMissingMessage` and `findingText` give them in the reader's.
 */

const CALLBACK = path.join(import.meta.dirname, 'plugins', 'gatehouse_jsonl.py');
const OUTPUT_TAIL = 64 * 1024;
/** Grace on top of the per-task timeouts before the whole run is killed. */
const DEADLINE_GRACE_MS = 30_000;

export interface AnsibleRunnerOptions {
  /** Gatehouse's DATA_DIR: hidden from, and closed to, the runner's OS user. */
  dataDir: string;
  log?: (message: string) => void;
}

export interface ExecuteOptions extends AnsibleRunnerOptions {
  /**
   * The static check of playbooks (playbookCheck.ts). Off only in the test that proves the second
   * wall holds on its own.
   */
  check: boolean;
  /** Overrides the deadline that kills the run (ms). */
  deadlineMs?: number;
}

function ansibleCfg(dir: RunDir, plan: RunnerPlan): string {
  const forks = Math.min(Math.max(plan.parallel || 1, 1), 50);
  return [
    '[defaults]',
    'stdout_callback = gatehouse_jsonl',
    `callback_plugins = ${dir.path('plugins')}`,
    // Host keys are pinned per host in the inventory (inventory.ts); Ansible must not turn that off.
    'host_key_checking = True',
    'retry_files_enabled = False',
    `local_tmp = ${dir.path('tmp', 'ansible-local')}`,
    `forks = ${forks}`,
    'timeout = 10',
    `task_timeout = ${plan.timeout > 0 ? Math.ceil(plan.timeout) : 0}`,
    'interpreter_python = auto_silent',
    'deprecation_warnings = False',
    'system_warnings = False',
    'nocows = 1',
    '[inventory]',
    'enable_plugins = yaml',
    '[ssh_connection]',
    'ssh_args = -o ControlMaster=no -o LogLevel=ERROR',
    'pipelining = True',
    '',
  ].join('\n');
}

/**
 * Job variables become Ansible extra vars, the strongest of all: one named `ansible_connection`
 * would run every task on the Gatehouse host. Only plain names that are not Ansible's own pass.
 */
const RESERVED_VARIABLES = new Set([
  'hostvars',
  'groups',
  'group_names',
  'inventory_hostname',
  'inventory_hostname_short',
  'inventory_dir',
  'inventory_file',
  'playbook_dir',
  'play_hosts',
  'role_path',
  'omit',
  'environment',
  'vars',
]);

export function variableNameAllowed(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/^ansible_/i.test(name) && !RESERVED_VARIABLES.has(name);
}

function entryExists(dir: string, entry: string): boolean {
  try {
    return !entry.split(/[\\/]/).includes('..') && fs.lstatSync(path.join(dir, entry)).isFile();
  } catch {
    return false;
  }
}

function allFailed(plan: RunnerPlan, reason: string): HostResult[] {
  for (const h of plan.hosts) plan.output(h.assetId, reason);
  return plan.hosts.map((h) => ({ assetId: h.assetId, status: 'failed', reason, output: reason, timeCost: 0 }));
}

function refusalText(r: HostRefusal): string {
  if (r.code === 'bad_address') return am('en', 'bad_address', { value: r.value });
  return am('en', r.code);
}

interface HostState {
  output: string;
  lastMsg: string;
  lastRc?: number;
  lastStatus?: string;
  end: number;
}

function eventLines(ev: Extract<AnsibleEvent, { e: 'result' }>): string[] {
  const head = `TASK [${ev.task}] ${ev.status === 'failed' || ev.status === 'unreachable' ? ev.status.toUpperCase() : ev.status}`;
  const body = [ev.stdout, ev.stderr].filter(Boolean).join('\n');
  const msg = ev.msg && (!body || ev.status !== 'ok') ? ev.msg : '';
  return [head, ...(body ? body.split(/\r?\n/) : []), ...(msg ? msg.split(/\r?\n/) : [])];
}

/** Runs a plan; `check: false` is only for the test of the second wall. */
export async function executePlan(plan: RunnerPlan, o: ExecuteOptions): Promise<HostResult[]> {
  if (!plan.hosts.length) return [];
  if (!ansibleAvailable()) return allFailed(plan, am('en', 'ansible_missing'));
  const iso = chooseIsolation();
  if (!iso.ok) return allFailed(plan, am('en', 'isolation_missing', { detail: iso.detail }));
  const reserved = Object.keys(plan.variables).find((name) => !variableNameAllowed(name));
  if (reserved !== undefined) return allFailed(plan, am('en', 'variable_reserved', { name: reserved }));
  let playbook: { files: Record<string, string>; yaml?: string; dir?: string; entry: string };
  if (plan.work.kind === 'playbook') {
    const entry = plan.work.entry || 'main.yml';
    if (!entryExists(plan.work.dir, entry)) return allFailed(plan, am('en', 'entry_missing', { entry }));
    playbook = { files: {}, dir: plan.work.dir, entry };
  } else {
    const m = modulePlaybook(plan.work.module, plan.work.args, { chdir: plan.chdir, variables: plan.variables });
    if (!m.ok) return allFailed(plan, am('en', 'module_unsupported', { module: plan.work.module, detail: m.detail }));
    playbook = { files: m.files, yaml: m.playbook, entry: 'main.yml' };
  }

  const dir = RunDir.create(plan.executionId, iso.isolation.user);
  const started = Date.now();
  try {
    // The copy is what runs, so the copy is what is checked: an edit of the playbook meanwhile changes neither.
    if (playbook.dir) {
      fs.cpSync(playbook.dir, dir.project, { recursive: true, verbatimSymlinks: true });
      const verdict = o.check ? await checkPlaybook(dir.project, playbook.entry) : { ok: true as const };
      if (!verdict.ok) return allFailed(plan, findingText('en', verdict.finding));
    }
    const { file: inventory, refused, included } = writeInventory(dir, plan.hosts);
    const results: HostResult[] = [...refused].map(([assetId, r]) => {
      const reason = refusalText(r);
      plan.output(assetId, reason);
      return { assetId, status: 'failed', reason, output: reason, timeCost: 0 };
    });
    if (!included.length) return results;
    if (playbook.yaml) dir.write('project/main.yml', playbook.yaml);
    for (const [name, content] of Object.entries(playbook.files)) dir.write(`project/${name}`, content);
    dir.write('ansible.cfg', ansibleCfg(dir, plan));
    dir.write('plugins/gatehouse_jsonl.py', fs.readFileSync(CALLBACK));
    const extra = Object.keys(plan.variables).length
      ? ['-e', `@${dir.write('vars.yml', unsafeYaml(plan.variables))}`]
      : [];
    dir.handOver();
    if (iso.isolation.user && closeDataDir(o.dataDir))
      o.log?.(`DATA_DIR ${o.dataDir} made 0700 for the Ansible runner`);

    const state = new Map<string, HostState>(included.map((h) => [h.assetId, { output: '', lastMsg: '', end: 0 }]));
    const emit = (assetId: string, line: string) => {
      const s = state.get(assetId);
      if (!s) return;
      s.output = (s.output + line + '\n').slice(-OUTPUT_TAIL);
      s.end = Date.now();
      plan.output(assetId, line);
    };
    const text: string[] = [];
    let stats: Extract<AnsibleEvent, { e: 'stats' }>['hosts'] | undefined;
    const batches = Math.ceil(included.length / Math.max(plan.parallel || 1, 1));
    const deadlineMs =
      o.deadlineMs ?? (plan.timeout > 0 ? plan.timeout * 1000 * batches + DEADLINE_GRACE_MS : undefined);
    const argv = ['ansible-playbook', '-i', inventory, ...extra, path.join(dir.project, playbook.entry)];
    const end = await runAnsibleProcess({
      command: isolatedCommand(iso.isolation, argv, {
        runDir: dir.root,
        cwd: dir.project,
        hide: hiddenPaths(o.dataDir),
      }),
      cwd: dir.project,
      env: {
        PATH: RUNNER_PATH,
        HOME: dir.home,
        TMPDIR: dir.tmp,
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        ANSIBLE_CONFIG: dir.path('ansible.cfg'),
      },
      deadlineMs,
      signal: plan.signal,
      onEvent(ev) {
        if (ev.e === 'result') {
          const s = state.get(ev.host);
          if (!s) return;
          for (const line of eventLines(ev)) emit(ev.host, line);
          if (ev.status === 'failed' || ev.status === 'unreachable') s.lastMsg = ev.msg || ev.stderr || ev.stdout;
          s.lastStatus = ev.status;
          if (ev.rc !== null) s.lastRc = ev.rc;
        } else if (ev.e === 'stats') stats = ev.hosts;
      },
      onText(line) {
        text.push(line);
        if (text.length > 200) text.shift();
        for (const id of state.keys()) emit(id, line);
      },
    });
    for (const [assetId, s] of state) {
      const st = stats?.[assetId];
      const timeCost = ((s.end || Date.now()) - started) / 1000;
      const base = { assetId, output: s.output, timeCost, ...(s.lastRc !== undefined ? { exitCode: s.lastRc } : {}) };
      if (st && st.unreachable > 0) results.push({ ...base, status: 'failed', reason: `unreachable: ${s.lastMsg}` });
      else if (st && st.failures > 0)
        results.push({
          ...base,
          status: /expected time frame|timed out/i.test(s.lastMsg) ? 'timeout' : 'failed',
          reason: s.lastMsg,
        });
      else if (st) results.push({ ...base, status: 'ok', reason: '' });
      else if (end.killed === 'deadline')
        results.push({
          ...base,
          status: 'timeout',
          reason: `timed out after ${Math.round((deadlineMs ?? 0) / 1000)} s`,
        });
      else if (end.killed === 'aborted') results.push({ ...base, status: 'failed', reason: 'stopped' });
      else
        results.push({
          ...base,
          status: 'failed',
          reason: text.slice(-5).join('\n') || `ansible-playbook ended with code ${end.exitCode}`,
        });
    }
    return results;
  } finally {
    dir.remove();
  }
}

/** Whether the runner can run `work` here; the reason (English) when not. */
export async function ansibleCanRun(work: RunnerWork): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!ansibleAvailable()) return { ok: false, reason: am('en', 'ansible_missing') };
  const iso = chooseIsolation();
  if (!iso.ok) return { ok: false, reason: am('en', 'isolation_missing', { detail: iso.detail }) };
  if (work.kind === 'module') {
    const m = modulePlaybook(work.module, '', { chdir: '', variables: {} });
    if (!m.ok) return { ok: false, reason: am('en', 'module_unsupported', { module: work.module, detail: m.detail }) };
  }
  return { ok: true };
}

/** The engine's `Runner` for Ansible. */
export function createAnsibleRunner(o: AnsibleRunnerOptions): Runner {
  return {
    name: 'ansible',
    available: ansibleCanRun,
    run: (plan) => executePlan(plan, { ...o, check: true }),
  };
}
