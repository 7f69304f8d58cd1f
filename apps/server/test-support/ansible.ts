import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ansibleAvailable } from '../src/modules/ops/ansible/ansibleAvailable.ts';
import { chooseIsolation } from '../src/modules/ops/ansible/isolation.ts';
import type { SshdWithUsers } from './sshd.ts';
import type {
  HostResult,
  RunnerConnection,
  RunnerHost,
  RunnerPlan,
  RunnerWork,
} from '../src/modules/ops/engine/runner.ts';

/**
 * Helpers of the Ansible tests: plans for the runner against the test sshd, and a hard stop when
 * the machine lacks Ansible (never a silent skip).
 */

/** Fails the test file with what to do when ansible-playbook or its isolation is missing. */
export function requireAnsible(): void {
  if (!ansibleAvailable())
    throw new Error('ansible-playbook is not installed on this machine: run `bash scripts/setup-machine.sh` as root');
  const iso = chooseIsolation();
  if (!iso.ok)
    throw new Error(`the Ansible runner cannot isolate itself here (${iso.detail}): run scripts/setup-machine.sh`);
}

let n = 0;

export function runnerHost(connection: RunnerConnection, name = `host-${++n}`): RunnerHost {
  return {
    assetId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    name: `${name}(${connection.host})`,
    platformType: 'linux',
    account: { id: `acc-${n}`, name: connection.username, username: connection.username, privileged: true },
    connection,
  };
}

/** A host on a test sshd by its password, with the host key the job centre would have checked. */
export function sshdHost(sshd: SshdWithUsers, extra: Partial<RunnerConnection> = {}): RunnerHost {
  return runnerHost({
    host: '127.0.0.1',
    port: sshd.port,
    username: sshd.username,
    password: sshd.password,
    hostKey: sshd.hostKey,
    ...extra,
  });
}

export interface Ran {
  results: Map<string, HostResult>;
  lines: Map<string, string[]>;
}

/** A plan over `hosts` with `work`, collecting each host's streamed lines. */
export function plan(
  hosts: RunnerHost[],
  work: RunnerWork,
  o: Partial<Pick<RunnerPlan, 'timeout' | 'chdir' | 'variables' | 'parallel' | 'signal'>> = {},
): { plan: RunnerPlan; lines: Map<string, string[]> } {
  const lines = new Map<string, string[]>(hosts.map((h) => [h.assetId, []]));
  return {
    lines,
    plan: {
      executionId: `exec-${process.pid}-${++n}`,
      hosts,
      work,
      timeout: o.timeout ?? 60,
      chdir: o.chdir ?? '',
      variables: o.variables ?? {},
      parallel: o.parallel ?? 4,
      signal: o.signal ?? new AbortController().signal,
      output: (id, line) => lines.get(id)?.push(line),
    },
  };
}

export function byHost(results: HostResult[]): Map<string, HostResult> {
  return new Map(results.map((r) => [r.assetId, r]));
}

/** A playbook folder with `files` (relative path -> content), removed by the caller. */
export function playbookFolder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-playbook-'));
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** The run folders of `plan` left in the temporary folder (none once its run is over). */
export function leftoverRunDirs(p: RunnerPlan): string[] {
  return fs.readdirSync(fs.realpathSync(os.tmpdir())).filter((f) => f.startsWith(`gh-ansible-${p.executionId}-`));
}
