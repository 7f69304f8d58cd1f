import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './ports.ts';
import { startVncServer, type VncServer } from './vncServer.ts';

/**
 * A real RDP server for tests: Debian's `xrdp` on a loopback port whose one session type is its
 * VNC module (`libvnc.so`) pointed at a TigerVNC desktop of the tests' own (vncServer.ts: an xterm
 * running sh). The RDP client's password is handed by xrdp to that VNC server, so the RDP account's
 * password is the desktop's VNC password. That needs neither a local user nor xrdp-sesman (which
 * would start a desktop session per login through PAM), and what is typed over RDP runs in the
 * xterm's shell where a test can see it. `stop()` ends xrdp and the desktop.
 */
export interface RdpServer {
  port: number;
  username: string;
  password: string;
  desktop: VncServer;
  stop(): void;
}

export async function startRdpServer(): Promise<RdpServer> {
  const desktop = await startVncServer({ width: 1024, height: 768 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-xrdp-'));
  const port = await freePort();
  const ini = path.join(dir, 'xrdp.ini');
  fs.writeFileSync(
    ini,
    [
      '[Globals]',
      'ini_version=1',
      'fork=true',
      `port=tcp://127.0.0.1:${port}`,
      'security_layer=negotiate',
      'crypt_level=high',
      'certificate=',
      'key_file=',
      'autorun=desktop',
      'allow_channels=true',
      'max_bpp=24',
      'new_cursors=true',
      'use_fastpath=both',
      '[Logging]',
      `LogFile=${path.join(dir, 'xrdp.log')}`,
      'LogLevel=INFO',
      'EnableSyslog=false',
      '[Channels]',
      'rdpdr=true',
      'cliprdr=true',
      '[desktop]',
      'name=desktop',
      'lib=libvnc.so',
      'username=na',
      'password=ask',
      'ip=127.0.0.1',
      `port=${desktop.port}`,
      '',
    ].join('\n'),
  );
  const xrdp = spawn('xrdp', ['--nodaemon', '--config', ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  xrdp.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<never>((_, reject) =>
    xrdp.once('exit', (code) => reject(new Error(`xrdp exited (${code}): ${stderr}`))),
  );
  await Promise.race([waitForPort(port), exited]);
  exited.catch(() => undefined);
  const children: ChildProcess[] = [xrdp];
  return {
    port,
    username: 'desktop',
    password: desktop.password,
    desktop,
    stop: () => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      desktop.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
