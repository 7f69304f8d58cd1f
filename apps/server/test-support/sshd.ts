import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';

/**
 * A real OpenSSH server (/usr/sbin/sshd) on 127.0.0.1 with a throw-away host key, for API tests,
 * browser tests and benchmarks alike: this file imports nothing of the server.
 *
 * Without users it offers no authentication that can succeed (connectivity probes only need the
 * handshake) and runs as whoever runs the tests. With users, they exist only for this sshd: it runs
 * in a private mount namespace (`unshare -m`) where its own passwd and shadow files are bind-mounted
 * over the system's, so the machine's users are untouched. That needs root, as the test machines run.
 */

export interface SshdUser {
  username: string;
  password: string;
  /**
   * uid and gid, 0 by default: sshd then needs no privilege-separation user of its own, and the user
   * may do what the tests do as root. Another uid (e.g. 1500) makes an unprivileged user, who may
   * `su` to a uid-0 user with that user's password.
   */
  uid?: number;
  /** Login shell, /bin/bash by default. */
  shell?: string;
}

export interface SshdOptions {
  /**
   * Who may sign in, each by password and by the generated key pair (`privateKey`), all with the
   * same home (`home`). The first is the result's `username` and `password`. None: no authentication
   * is offered, no mount namespace (no root needed).
   */
  users?: [SshdUser, ...SshdUser[]];
  /**
   * A `.bash_profile` in `home` giving bash logins this prompt (PS1), a history file of their own
   * (`home/.bash_history`, nothing left out) and no PROMPT_COMMAND, so what a terminal shows is
   * predictable. None by default (the system's bash defaults).
   */
  prompt?: string;
  /** An SFTP subsystem (`Subsystem sftp internal-sftp`); none by default. */
  sftp?: boolean;
  /** More sshd_config lines, after the fixture's (e.g. `MaxStartups 300` for hundreds of sessions). */
  config?: string[];
  /**
   * Users of the machine itself (made by the test with `osUser()`, removed by its `remove()`) who may
   * sign in with their own password and `~/.ssh/authorized_keys`, and root with the generated key
   * (`privateKey`): for tests that change what the host holds (passwords with chpasswd,
   * authorized_keys), which the private passwd/shadow of `users` cannot take (chpasswd renames over
   * the file, a bind mount refuses). No mount namespace; needs root.
   */
  osUsers?: string[];
}

export interface Sshd {
  port: number;
  /** OpenSSH's fingerprint of the host key (`SHA256:...`). */
  hostKeyFingerprint: string;
  /** The host key as `known_hosts` has it (`<type> <base64>`). */
  hostKey: string;
  /** Stops sshd (its sessions end) and removes its files. */
  stop(): void;
}

export interface SshdWithUsers extends Sshd {
  /** The first user's name and password. */
  username: string;
  password: string;
  /** OpenSSH private key (unencrypted) whose public half is authorised for every user. */
  privateKey: string;
  /** The users' home directory (a temporary directory, removed by `stop()`). */
  home: string;
}

/** The gateway tests' user, logging in to bash with the prompt `gh$ ` (`startShellSshd`). */
export const SHELL_USER: SshdUser = { username: 'shelluser', password: 'Shell-pass-1' };

export function startSshd(options: SshdOptions & { osUsers: string[] }): Promise<SshdWithUsers>;
export function startSshd(options?: SshdOptions & { users?: undefined }): Promise<Sshd>;
export function startSshd(options: SshdOptions & { users: [SshdUser, ...SshdUser[]] }): Promise<SshdWithUsers>;
export async function startSshd(options: SshdOptions = {}): Promise<Sshd | SshdWithUsers> {
  const users = options.users ?? [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sshd-'));
  const file = (name: string) => path.join(dir, name);
  const home = file('home');
  fs.mkdirSync(home);
  // sshd running as root wants its privilege-separation directory.
  if (process.getuid?.() === 0) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  keygen(file('host_key'));
  const hostKeyFingerprint = execFileSync('ssh-keygen', ['-l', '-f', file('host_key.pub')])
    .toString()
    .split(' ')[1]!;
  const hostKey = fs.readFileSync(file('host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
  const config = [
    'ListenAddress 127.0.0.1',
    `HostKey ${file('host_key')}`,
    'UsePAM no',
    'PidFile none',
    'StrictModes no',
    'KbdInteractiveAuthentication no',
    'PrintMotd no',
    'PrintLastLog no',
  ];
  const sshd = ['/usr/sbin/sshd', '-D', '-e', '-f', file('sshd_config')];
  let command = sshd;
  if (options.osUsers) {
    keygen(file('user_key'));
    fs.copyFileSync(file('user_key.pub'), file('authorized_keys'));
    config.push(
      'PermitRootLogin yes',
      'PasswordAuthentication yes',
      'PubkeyAuthentication yes',
      'AllowTcpForwarding yes',
      `AuthorizedKeysFile .ssh/authorized_keys ${file('authorized_keys')}`,
      `AllowUsers root ${options.osUsers.join(' ')}`,
    );
  } else if (!users.length) config.push('PasswordAuthentication no');
  else {
    keygen(file('user_key'));
    fs.copyFileSync(file('user_key.pub'), file('authorized_keys'));
    if (options.prompt !== undefined)
      fs.writeFileSync(
        path.join(home, '.bash_profile'),
        [`PS1='${options.prompt}'`, `HISTFILE=${home}/.bash_history`, 'HISTCONTROL=', 'unset PROMPT_COMMAND', ''].join(
          '\n',
        ),
      );
    // An unprivileged user reads and writes the shared home too.
    if (users.some((u) => (u.uid ?? 0) !== 0)) {
      fs.chmodSync(dir, 0o755);
      fs.chmodSync(home, 0o777);
      for (const f of fs.readdirSync(home)) fs.chmodSync(path.join(home, f), 0o666);
    }
    const passwd = fs.readFileSync('/etc/passwd', 'utf8').trimEnd();
    const shadow = fs.existsSync('/etc/shadow') ? fs.readFileSync('/etc/shadow', 'utf8').trimEnd() : '';
    const lines = users.map((u) => `${u.username}:x:${u.uid ?? 0}:${u.uid ?? 0}::${home}:${u.shell ?? '/bin/bash'}`);
    const hashes = users.map((u) => `${u.username}:${passwordHash(u.password)}:19000:0:99999:7:::`);
    fs.writeFileSync(file('passwd'), `${passwd}\n${lines.join('\n')}\n`);
    fs.writeFileSync(file('shadow'), `${shadow}\n${hashes.join('\n')}\n`, { mode: 0o600 });
    config.push(
      'PermitRootLogin yes',
      'PasswordAuthentication yes',
      'PubkeyAuthentication yes',
      // Domain gateway tests tunnel through the asset (OpenSSH's default, said out loud).
      'AllowTcpForwarding yes',
      `AuthorizedKeysFile ${file('authorized_keys')}`,
      `AllowUsers ${users.map((u) => u.username).join(' ')}`,
    );
    // The users live in a private copy of /etc mounted over /etc in sshd's own mount namespace, not
    // in files mounted over /etc/passwd and /etc/shadow: a test that changes the machine's users
    // (useradd, chpasswd: `osUser()`) renames over those files, and Linux then detaches a mount on
    // them in every other namespace, so each running sshd would fall back to the machine's users.
    const script = [
      `cp -a /etc ${file('etc')}`,
      `cp ${file('passwd')} ${file('etc/passwd')}`,
      `cp ${file('shadow')} ${file('etc/shadow')}`,
      `mount --bind ${file('etc')} /etc`,
      `exec ${sshd.join(' ')}`,
    ].join(' && ');
    command = ['unshare', '-m', '--propagation', 'private', 'sh', '-c', script];
  }
  if (options.sftp) config.push('Subsystem sftp internal-sftp');
  config.push(...(options.config ?? []));
  // A port free when asked may be taken by another test's server before this sshd binds it; then
  // this sshd exits and the port answers with someone else's. So the port is ours only once this
  // sshd says it listens on it; otherwise try another.
  let started: { proc: ChildProcess; port: number } | undefined;
  for (let attempt = 0; !started; attempt++) {
    if (attempt === 5) throw new Error('sshd did not start on any of 5 free ports');
    const port = await freePort();
    fs.writeFileSync(file('sshd_config'), [`Port ${port}`, ...config].join('\n'));
    const proc = await listening(spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] }), port);
    if (proc) started = { proc, port };
  }
  const { proc, port } = started;
  const stop = () => {
    proc.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  if (options.osUsers)
    return {
      port,
      hostKeyFingerprint,
      hostKey,
      username: 'root',
      password: '',
      privateKey: fs.readFileSync(file('user_key'), 'utf8'),
      home,
      stop,
    };
  if (!users.length) return { port, hostKeyFingerprint, hostKey, stop };
  const [first] = users as [SshdUser];
  return {
    port,
    hostKeyFingerprint,
    hostKey,
    username: first.username,
    password: first.password,
    privateKey: fs.readFileSync(file('user_key'), 'utf8'),
    home,
    stop,
  };
}

/**
 * The gateway tests' asset: bash logins with the prompt `gh$ ` and their own history, so line
 * editing, history recall and full-screen programs behave as on a real asset, and SFTP. `users`:
 * SHELL_USER unless given; the other options as `startSshd`'s.
 */
export function startShellSshd(options: SshdOptions = {}): Promise<SshdWithUsers> {
  return startSshd({ prompt: 'gh$ ', sftp: true, ...options, users: options.users ?? [SHELL_USER] });
}

/** The sshd once it logs that it listens on `port`, or undefined if it exits (or says nothing in 10 s). */
function listening(proc: ChildProcess, port: number): Promise<ChildProcess | undefined> {
  return new Promise((resolve) => {
    let said = '';
    let ready = false;
    const exited = () => finish(false);
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      proc.off('exit', exited);
      if (!ok) proc.kill();
      resolve(ok ? proc : undefined);
    };
    const timer = setTimeout(() => finish(false), 10_000);
    proc.once('exit', exited);
    // sshd -e logs every connection to stderr: keep reading it, or the pipe fills and sshd stalls.
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (ready) return;
      said += chunk;
      if (said.includes(`Server listening on 127.0.0.1 port ${port}`)) {
        ready = true;
        finish(true);
      }
    });
  });
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
}

function passwordHash(password: string): string {
  return execFileSync('openssl', ['passwd', '-6', password]).toString().trim();
}

/**
 * A throw-away user of this machine (`useradd -m`, a password set with chpasswd) for `osUsers`;
 * `remove()` deletes it with its home (`userdel -r`): call it in afterAll. Needs root.
 */
export function osUser(password: string): { username: string; password: string; remove(): void } {
  const username = `ghau${Math.random().toString(36).slice(2, 8)}`;
  execFileSync('useradd', ['-m', '-s', '/bin/sh', username]);
  execFileSync('chpasswd', [], { input: `${username}:${password}\n` });
  return {
    username,
    password,
    remove: () => {
      try {
        execFileSync('userdel', ['-r', '-f', username], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    },
  };
}
