import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './sshd.ts';

/**
 * A real OpenSSH server on loopback that accepts one user by password and by public key, for
 * account connectivity tests (API and browser tests; imports nothing of the server). The user
 * exists only for this sshd: it runs in a private mount namespace (`unshare -m`) where its own
 * passwd and shadow files are bind-mounted over the system's, so the machine's users are untouched.
 * Needs root (as the test machines run).
 */
export interface AuthSshd {
  port: number;
  username: string;
  password: string;
  /** OpenSSH private key (unencrypted) whose public half is authorised. */
  privateKey: string;
  stop(): void;
}

export async function startAuthSshd(username = 'vaultuser', password = 'Right-pass-1'): Promise<AuthSshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-authsshd-'));
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'user_key')]);
  fs.copyFileSync(path.join(dir, 'user_key.pub'), path.join(dir, 'authorized_keys'));
  const hash = execFileSync('openssl', ['passwd', '-6', password]).toString().trim();
  const passwd = fs.readFileSync('/etc/passwd', 'utf8').trimEnd();
  const shadow = fs.existsSync('/etc/shadow') ? fs.readFileSync('/etc/shadow', 'utf8').trimEnd() : '';
  // uid 0: sshd runs unprivileged checks as the user; root needs no privilege separation user of its own.
  fs.writeFileSync(path.join(dir, 'passwd'), `${passwd}\n${username}:x:0:0::${dir}:/bin/sh\n`);
  fs.writeFileSync(path.join(dir, 'shadow'), `${shadow}\n${username}:${hash}:19000:0:99999:7:::\n`, { mode: 0o600 });
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
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `AllowUsers ${username}`,
      'KbdInteractiveAuthentication no',
      'StrictModes no',
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
    stop() {
      proc.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
