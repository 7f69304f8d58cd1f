import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './sshd.ts';

/**
 * A real OpenSSH server on loopback for gateway tests: one user (password and public key) whose
 * login shell is bash with a fixed prompt (`gh$ `) and its own history, so line editing, history
 * recall and full-screen programs behave as on a real asset. As `authSshd.ts`, the user
 * exists only for this sshd (private mount namespace with its own passwd/shadow; needs root).
 * Imports nothing of the server, so child-process runners can use it too.
 */
export interface ShellSshd {
  port: number;
  username: string;
  password: string;
  privateKey: string;
  home: string;
  /** OpenSSH's fingerprint of the host key (`SHA256:...`). */
  hostKeyFingerprint: string;
  stop(): void;
}

/**
 * `plain`: a second, unprivileged user (uid 1500, same shell and home) who can `su` to the first
 * one with the first one's password. `extraConfig`: more sshd_config lines (the gateway benchmark
 * raises MaxStartups for its hundreds of sessions).
 */
export async function startShellSshd(
  username = 'shelluser',
  password = 'Shell-pass-1',
  plain?: { username: string; password: string },
  extraConfig: string[] = [],
): Promise<ShellSshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-shellsshd-'));
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'user_key')]);
  fs.copyFileSync(path.join(dir, 'user_key.pub'), path.join(dir, 'authorized_keys'));
  const fp = execFileSync('ssh-keygen', ['-l', '-f', path.join(dir, 'host_key.pub')])
    .toString()
    .split(' ')[1]!;
  fs.writeFileSync(
    path.join(home, '.bash_profile'),
    ["PS1='gh$ '", `HISTFILE=${home}/.bash_history`, 'HISTCONTROL=', 'unset PROMPT_COMMAND', ''].join('\n'),
  );
  const hash = execFileSync('openssl', ['passwd', '-6', password]).toString().trim();
  const passwd = fs.readFileSync('/etc/passwd', 'utf8').trimEnd();
  const shadow = fs.existsSync('/etc/shadow') ? fs.readFileSync('/etc/shadow', 'utf8').trimEnd() : '';
  let users = `${username}:x:0:0::${home}:/bin/bash\n`;
  let hashes = `${username}:${hash}:19000:0:99999:7:::\n`;
  if (plain) {
    const plainHash = execFileSync('openssl', ['passwd', '-6', plain.password]).toString().trim();
    users += `${plain.username}:x:1500:1500::${home}:/bin/bash\n`;
    hashes += `${plain.username}:${plainHash}:19000:0:99999:7:::\n`;
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(home, 0o777);
    for (const f of fs.readdirSync(home)) fs.chmodSync(path.join(home, f), 0o666);
  }
  fs.writeFileSync(path.join(dir, 'passwd'), `${passwd}\n${users}`);
  fs.writeFileSync(path.join(dir, 'shadow'), `${shadow}\n${hashes}`, { mode: 0o600 });
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      'UsePAM no',
      'PidFile none',
      'PermitRootLogin yes',
      'PasswordAuthentication yes',
      'PubkeyAuthentication yes',
      'AllowTcpForwarding yes',
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `AllowUsers ${username}${plain ? ` ${plain.username}` : ''}`,
      'KbdInteractiveAuthentication no',
      'StrictModes no',
      'PrintMotd no',
      'PrintLastLog no',
      'Subsystem sftp internal-sftp',
      ...extraConfig,
    ].join('\n'),
  );
  const script = [
    `mount --bind ${path.join(dir, 'passwd')} /etc/passwd`,
    `mount --bind ${path.join(dir, 'shadow')} /etc/shadow`,
    `exec /usr/sbin/sshd -D -e -f ${path.join(dir, 'sshd_config')}`,
  ].join(' && ');
  const proc: ChildProcess = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', script], {
    stdio: 'ignore',
  });
  await waitForPort(port);
  return {
    port,
    username,
    password,
    privateKey: fs.readFileSync(path.join(dir, 'user_key'), 'utf8'),
    home,
    hostKeyFingerprint: fp,
    stop() {
      proc.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
