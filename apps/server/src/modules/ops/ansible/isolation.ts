import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findExecutable } from './ansibleAvailable.ts';

/**
 * The second wall between a playbook and the Gatehouse host (docs/ops.md, "Ansible"): whatever the
 * static check (playbookCheck.ts) missed runs with nothing of Gatehouse in reach.
 *
 * - Gatehouse runs as root (this machine, the Debian service): ansible-playbook runs as the OS user
 *   `gatehouse-runner` (scripts/setup-machine.sh adds it), so it cannot read root's files (DATA_DIR
 *   is made 0700, the process environment of Gatehouse is root's alone), and inside bubblewrap when
 *   installed, which also mounts empty folders over DATA_DIR and the home folders and gives it its
 *   own /tmp and process namespace.
 * - Gatehouse runs as a normal user: the same user would read DATA_DIR, so bubblewrap is required
 *   (unprivileged user namespaces); without it Ansible does not run and says why.
 */
export const RUNNER_USER = 'gatehouse-runner';

export interface Isolation {
  /** Switch to this uid/gid (Gatehouse runs as root). */
  user?: { uid: number; gid: number };
  /** bubblewrap's path, when it runs inside it. */
  bwrap?: string;
}

function passwdEntry(name: string): { uid: number; gid: number } | undefined {
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [user, , uid, gid] = line.split(':');
      if (user === name) return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    // no passwd file
  }
  return undefined;
}

let bwrapWorks: Map<string, boolean> | undefined;

/** Whether bubblewrap can make a sandbox here for `user` (user namespaces may be off), tried once. */
function bwrapUsable(bwrap: string, user?: { uid: number; gid: number }): boolean {
  bwrapWorks ??= new Map();
  const key = `${bwrap}:${user?.uid ?? ''}`;
  if (!bwrapWorks.has(key)) {
    const r = spawnSync(bwrap, ['--ro-bind', '/', '/', '--unshare-pid', '--die-with-parent', '--', 'true'], {
      uid: user?.uid,
      gid: user?.gid,
      env: {},
      timeout: 5000,
      stdio: 'ignore',
    });
    bwrapWorks.set(key, r.status === 0);
  }
  return bwrapWorks.get(key)!;
}

/** How this host isolates ansible-playbook, or why it cannot (an English detail for the message). */
export function chooseIsolation(): { ok: true; isolation: Isolation } | { ok: false; detail: string } {
  const bwrap = findExecutable('bwrap');
  if (process.getuid?.() === 0) {
    const user = passwdEntry(RUNNER_USER);
    if (!user)
      return {
        ok: false,
        detail: `Gatehouse runs as root and the OS user ${RUNNER_USER} does not exist (scripts/setup-machine.sh adds it)`,
      };
    return { ok: true, isolation: { user, bwrap: bwrap && bwrapUsable(bwrap, user) ? bwrap : undefined } };
  }
  if (bwrap && bwrapUsable(bwrap)) return { ok: true, isolation: { bwrap } };
  return {
    ok: false,
    detail:
      'Gatehouse does not run as root and bubblewrap (bwrap) is not installed or cannot make a sandbox; install the Debian package bubblewrap',
  };
}

/** Folders a playbook must never see: Gatehouse's data and the home folders of this host. */
export function hiddenPaths(dataDir: string): string[] {
  const out = new Set<string>();
  for (const p of [dataDir, os.homedir(), '/root', '/home']) {
    try {
      const real = fs.realpathSync(p);
      if (fs.statSync(real).isDirectory()) out.add(real);
    } catch {
      // absent here
    }
  }
  return [...out];
}

/** Takes group and other access off DATA_DIR, so the runner's OS user cannot read Gatehouse's data. */
export function closeDataDir(dataDir: string): boolean {
  const st = fs.statSync(dataDir);
  if ((st.mode & 0o077) === 0) return false;
  fs.chmodSync(dataDir, st.mode & 0o700);
  return true;
}

export interface Command {
  command: string;
  args: string[];
  uid?: number;
  gid?: number;
}

/** The argument list that runs `argv` in `cwd` under the isolation (never a shell string). */
export function isolatedCommand(
  iso: Isolation,
  argv: string[],
  o: { runDir: string; cwd: string; hide: string[] },
): Command {
  const user = iso.user ? { uid: iso.user.uid, gid: iso.user.gid } : {};
  if (!iso.bwrap) return { command: argv[0]!, args: argv.slice(1), ...user };
  const tmp = fs.realpathSync(os.tmpdir());
  const hide = o.hide.filter((p) => p !== tmp && !p.startsWith(tmp + path.sep) && !o.runDir.startsWith(p + path.sep));
  const args = [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    '--tmpfs', tmp,
    ...hide.flatMap((p) => ['--tmpfs', p]),
    '--bind', o.runDir, o.runDir,
    '--unshare-pid',
    '--unshare-ipc',
    '--die-with-parent',
    '--chdir', o.cwd,
    '--',
    ...argv,
  ]; // prettier-ignore
  return { command: iso.bwrap, args, ...user };
}
