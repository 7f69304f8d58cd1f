import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminClient, createTestApp } from './testApp.ts';
import { hostWithAccounts } from './gateway.ts';
import { freePort } from './ports.ts';
import { startShellSshd } from './sshd.ts';

/** The real OpenSSH client driven by a test: `ssh -tt` through pipes, passwords and codes by SSH_ASKPASS. */

/**
 * An app with its native SSH server on a free port, the signed-in admin, and a real sshd asset
 * with a password and a key account (`hostWithAccounts`). Stop `sshd` and close `t` after.
 */
export async function nativeSshApp() {
  const sshd = await startShellSshd();
  const port = await freePort();
  const t = await createTestApp({ GATEHOUSE_SSH_PORT: String(port) });
  const admin = await adminClient(t.app);
  const target = await hostWithAccounts(admin, sshd);
  return { sshd, port, t, admin, target };
}

/** An askpass program answering `password` to a password prompt and `otp` to a code prompt. */
function askpass(password: string, otp: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-askpass-'));
  const file = path.join(dir, 'askpass.sh');
  fs.writeFileSync(
    file,
    `#!/bin/sh\ncase "$1" in *OTP*) printf '%s\\n' '${otp}' ;; *) printf '%s\\n' '${password}' ;; esac\n`,
    { mode: 0o700 },
  );
  return file;
}

export class SshClient {
  text = '';
  err = '';
  readonly exited: Promise<number>;
  private readonly child: ChildProcessWithoutNullStreams;

  /**
   * `identity`: a private key file to sign in with (public key only) instead of the password.
   * `env`: variables sent by `SendEnv` (e.g. `{LANG: 'zh_CN.UTF-8'}`); none is sent otherwise.
   * `command`: run as an exec request instead of a shell.
   */
  constructor(
    port: number,
    login: string,
    secret: { password: string; otp?: string; identity?: string },
    opts: { env?: Record<string, string>; command?: string } = {},
  ) {
    const auth = secret.identity
      ? ['-i', secret.identity, '-o', 'IdentitiesOnly=yes', '-o', 'PreferredAuthentications=publickey']
      : ['-o', 'PubkeyAuthentication=no', '-o', 'PreferredAuthentications=keyboard-interactive,password'];
    this.child = spawn(
      'ssh',
      [
        '-tt',
        '-p',
        String(port),
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        'UserKnownHostsFile=/dev/null',
        ...auth,
        '-o',
        'NumberOfPasswordPrompts=1',
        '-o',
        'LogLevel=ERROR',
        // The system's ssh_config may send LANG and LC_*: only what the test asks for is sent.
        '-o',
        'SendEnv=-*',
        ...Object.keys(opts.env ?? {}).flatMap((k) => ['-o', `SendEnv=${k}`]),
        `${login}@127.0.0.1`,
        ...(opts.command ? [opts.command] : []),
      ],
      {
        env: {
          ...process.env,
          ...opts.env,
          SSH_ASKPASS: askpass(secret.password, secret.otp ?? ''),
          SSH_ASKPASS_REQUIRE: 'force',
          DISPLAY: ':0',
        },
      },
    );
    this.child.stdout.setEncoding('utf8').on('data', (s: string) => (this.text += s));
    this.child.stderr.setEncoding('utf8').on('data', (s: string) => (this.err += s));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code ?? -1)));
  }

  async waitFor(re: RegExp | string, from = 0, ms = 15000): Promise<void> {
    const test = () => (typeof re === 'string' ? this.text.slice(from).includes(re) : re.test(this.text.slice(from)));
    for (let waited = 0; !test(); waited += 20) {
      if (waited > ms)
        throw new Error(`no ${String(re)} in ssh output:\n${this.text.slice(from)}\nstderr: ${this.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Types a line and Enter, key by key, then waits for `until` after it. */
  async line(s: string, until?: RegExp | string): Promise<void> {
    const from = this.text.length;
    for (const k of [...s, '\r']) {
      this.child.stdin.write(k);
      await new Promise((r) => setTimeout(r, 10));
    }
    if (until !== undefined) await this.waitFor(until, from);
  }

  /** Sends keys as they are (no Enter), e.g. Ctrl+C. */
  keys(s: string): void {
    this.child.stdin.write(s);
  }

  kill(): void {
    this.child.kill();
  }
}

/** A new Ed25519 key pair from ssh-keygen: the private key file and the public key line. */
export function userKeyPair(): { file: string; publicKey: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-userkey-'));
  const file = path.join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'test@gatehouse', '-f', file]);
  return { file, publicKey: fs.readFileSync(`${file}.pub`, 'utf8').trim() };
}

/** How a client signs in: a private key file, or a password given by SSH_ASKPASS. */
export type ClientAuth = string | { password: string };

/**
 * The OpenSSH `sftp` client in batch mode (`-b -`: commands on stdin), signed in with a key. With a
 * password the commands are still read from stdin but without `-b`: batch mode forbids passwords
 * (sftp sets BatchMode), so a failing command does not stop the rest: check what it did.
 */
export function runSftp(
  port: number,
  login: string,
  identity: ClientAuth,
  commands: string[],
  cwd?: string,
  timeoutMs = 30_000,
): Promise<{ code: number; out: string; err: string }> {
  return runClient(
    'sftp',
    [
      ...(typeof identity === 'string' ? ['-b', '-'] : []),
      '-P',
      String(port),
      ...authOptions(identity),
      `${login}@127.0.0.1`,
    ],
    commands.join('\n') + '\n',
    cwd,
    timeoutMs,
    envOf(identity),
  );
}

/**
 * An OpenSSH `sftp` client kept open: commands are sent one by one (`-b -`: a failing command ends
 * the batch unless prefixed with `-`), its output (stdout and stderr) read as it comes.
 */
export function openSftp(port: number, login: string, identity: string, cwd?: string) {
  const child = spawn('sftp', ['-b', '-', '-P', String(port), ...keyOptions(identity), `${login}@127.0.0.1`], {
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  child.stdin.on('error', () => undefined);
  return {
    send: (line: string) => child.stdin.write(`${line}\n`),
    output: () => output,
    exited,
    stop: () => child.kill(),
  };
}

/** The OpenSSH `scp` client (`-O`: the legacy protocol), signed in with a key. */
export function runScp(
  port: number,
  identity: string,
  args: string[],
  legacy = false,
): Promise<{ code: number; out: string; err: string }> {
  return runClient('scp', [...(legacy ? ['-O'] : []), '-P', String(port), ...keyOptions(identity), ...args], '');
}

/**
 * `ssh <login> <command>` as a script runs it (no terminal unless `tty`), signed in with a key:
 * stdout, stderr and the exit code apart; `input` is its stdin. Killed after `timeoutMs`.
 */
export function runSsh(
  port: number,
  identity: string,
  login: string,
  command: string,
  opts: { input?: string; tty?: boolean; timeoutMs?: number } = {},
): Promise<{ code: number; out: string; err: string }> {
  const args = [
    ...(opts.tty ? ['-tt'] : ['-T']),
    '-p',
    String(port),
    ...keyOptions(identity),
    '-l',
    login,
    '127.0.0.1',
    command,
  ];
  return runClient('ssh', args, opts.input ?? '', undefined, opts.timeoutMs);
}

const COMMON_OPTIONS = ['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR'];

function authOptions(auth: ClientAuth): string[] {
  if (typeof auth === 'string') return keyOptions(auth);
  return [
    '-o',
    'PubkeyAuthentication=no',
    '-o',
    'PreferredAuthentications=password',
    '-o',
    'NumberOfPasswordPrompts=1',
    ...COMMON_OPTIONS,
  ];
}

function envOf(auth: ClientAuth): NodeJS.ProcessEnv | undefined {
  if (typeof auth === 'string') return undefined;
  return { ...process.env, SSH_ASKPASS: askpass(auth.password, ''), SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0' };
}

function keyOptions(identity: string): string[] {
  return ['-i', identity, '-o', 'IdentitiesOnly=yes', '-o', 'PreferredAuthentications=publickey', ...COMMON_OPTIONS];
}

function runClient(
  cmd: string,
  args: string[],
  input: string,
  cwd?: string,
  timeoutMs = 30_000,
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    // A client that hangs is killed: the test then fails on its output instead of timing out.
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out, err: code === null ? `${err}\n(killed after ${timeoutMs} ms)` : err });
    });
    child.stdin.end(input);
  });
}
