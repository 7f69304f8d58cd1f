import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vncPasswordFile } from '../src/modules/terminal/graphical/des.ts';
import { windowShown } from '../src/modules/terminal/graphical/xWindows.ts';
import { freePort, waitForPort } from './ports.ts';

/**
 * A real VNC server for tests, browser tests and benchmarks: TigerVNC's `Xtigervnc` on a loopback
 * port with VNC Authentication (a password file made here), on a display it picks itself
 * (`-displayfd`), running an `xterm` whose shell runs what is typed into it (so a key typed in the
 * browser has an effect a test can see: a file the shell writes). `stop()` ends both and removes
 * the files.
 */
export interface VncServer {
  port: number;
  password: string;
  display: string;
  /** The xterm's working directory: what the shell writes lands here. */
  dir: string;
  width: number;
  height: number;
  /** Starts another X program on the display (e.g. a second window); ended by `stop()`. */
  run(cmd: string, args: string[]): ChildProcess;
  stop(): void;
}

const XTERM_TITLE = 'gatehouse-test-xterm';

export async function startVncServer(
  opts: { password?: string; width?: number; height?: number } = {},
): Promise<VncServer> {
  const password = opts.password ?? 'Vnc-pass1';
  const width = opts.width ?? 800;
  const height = opts.height ?? 600;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-vnc-'));
  const pwFile = path.join(dir, 'passwd');
  fs.writeFileSync(pwFile, vncPasswordFile(password), { mode: 0o600 });
  const port = await freePort();
  const server = spawn(
    'Xtigervnc',
    [
      '-rfbport',
      String(port),
      '-localhost=1',
      '-SecurityTypes',
      'VncAuth',
      '-PasswordFile',
      pwFile,
      '-geometry',
      `${width}x${height}`,
      '-depth',
      '24',
      '-AlwaysShared',
      '-nolisten',
      'tcp',
      '-displayfd',
      '3',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  server.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdio[3]!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    server.once('exit', (code) => reject(new Error(`Xtigervnc exited (${code}): ${stderr}`)));
  });
  await waitForPort(port);
  const children: ChildProcess[] = [server];
  const run = (cmd: string, args: string[]) => {
    const c = spawn(cmd, args, { cwd: dir, env: { ...process.env, DISPLAY: display }, stdio: 'ignore' });
    c.on('error', () => undefined);
    children.push(c);
    return c;
  };
  // A large font on a black screen: what is typed shows as big white text.
  run('xterm', [
    '-geometry',
    '80x20+0+0',
    '-fa',
    'Monospace',
    '-fs',
    '14',
    '-bg',
    'black',
    '-fg',
    'white',
    '-T',
    XTERM_TITLE,
    '-e',
    '/bin/sh',
  ]);
  // Keys sent before the xterm's window is mapped go to the root window and are lost: a test
  // typing at once on a busy machine saw nothing arrive. Wait until it shows (30 s at most).
  const env = { ...process.env, DISPLAY: display };
  const deadline = Date.now() + 30_000;
  while (!(await windowShown(env, XTERM_TITLE))) {
    if (Date.now() > deadline) {
      for (const c of children) c.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`the xterm on ${display} did not show within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    password,
    display,
    dir,
    width,
    height,
    run,
    stop: () => {
      for (const c of children.reverse()) if (c.exitCode === null) c.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
