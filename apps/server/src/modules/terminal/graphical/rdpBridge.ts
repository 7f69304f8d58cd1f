import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { GatewayDeps } from '../gateway/gatewaySession.ts';
import { GatewayError } from '../gateway/gatewayError.ts';
import { openTunnel } from '../gateway/sshConnect.ts';
import { processRuns } from '../gateway/processRuns.ts';
import { vncPasswordFile } from './des.ts';
import type { GraphicalTarget } from './graphicalTarget.ts';
import type { GraphicalOptions } from './graphicalSession.ts';
import { HelperProcess } from './helperProcess.ts';
import { windowShown } from './xWindows.ts';

/**
 * The helpers of one RDP session (docs/graphical.md, "RDP"): a virtual display (`Xvfb`) at the
 * browser's size, FreeRDP's `xfreerdp` on it logged in to the asset, and `x11vnc` showing that
 * display over RFB on a Unix socket, which the session relays to the browser as it relays a VNC
 * asset. Everything lives in a private directory (mode 0700): the display's cookie (Xvfb runs with
 * `-auth`, so no other local user can open it), x11vnc's socket and password file (a random
 * password: the socket's directory already keeps others out), the drive shared with the asset.
 * The account's password reaches xfreerdp on its standard input (`/from-stdin`), never its command
 * line. Through a domain gateway, xfreerdp connects to a loopback port forwarded through the
 * gateway's SSH connection. `stop()` ends the helpers' process groups and removes the directory.
 */
export interface RdpBridge {
  /** x11vnc's Unix socket. */
  socket: string;
  vncPassword: string;
  /** The helpers' pids (tests check they are gone). */
  pids(): number[];
  /** Called when the RDP client exits on its own (the asset ended the session). */
  onEnd(f: () => void): void;
  stop(): Promise<void>;
}

const GiB = 1024 ** 3;
const DIR_PREFIX = 'gh-rdp-';
/** In each session's directory: the gateway's pid, then the helpers' process groups, one a line. */
const OWNER_FILE = 'owner';

/**
 * Helpers left by a gateway that died without stopping them (`kill -9`, a crash): each session's
 * directory names its gateway's pid and its helpers' process groups; when that gateway no longer
 * runs, the groups are killed and the directory removed. Run at each instance's start
 * (gateway/instance.ts). Answers the process groups it ended.
 */
export function reapOrphanedHelpers(tmp = os.tmpdir()): number[] {
  const reaped: number[] = [];
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(tmp).filter((d) => d.startsWith(DIR_PREFIX));
  } catch {
    return reaped;
  }
  for (const d of entries) {
    const dir = path.join(tmp, d);
    let lines: number[];
    try {
      lines = fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8').trim().split('\n').map(Number);
    } catch {
      continue; // not ours, or still being made
    }
    const [owner, ...groups] = lines;
    if (processRuns(owner!)) continue;
    for (const g of groups.filter((x) => x > 1)) {
      try {
        process.kill(-g, 'SIGKILL');
        reaped.push(g);
      } catch {
        // already gone
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return reaped;
}
const READY_MS = 20_000;

/** An Xauthority file with one wildcard entry (any address, any display) for `cookie`. */
function xauthority(cookie: Buffer): Buffer {
  const field = (b: Buffer) => Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
  return Buffer.concat([
    Buffer.from([0xff, 0xff]), // FamilyWild
    field(Buffer.alloc(0)),
    field(Buffer.alloc(0)),
    field(Buffer.from('MIT-MAGIC-COOKIE-1')),
    field(cookie),
  ]);
}

/** Waits until `test` holds, or one of `helpers` exits, or READY_MS pass. */
async function until(test: () => boolean | Promise<boolean>, helpers: HelperProcess[], what: string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  while (!(await test())) {
    const dead = helpers.find((h) => !h.running);
    if (dead) throw new Error(`${what}: ${dead.output.trim().split('\n').slice(-3).join(' ') || 'it exited'}`);
    if (Date.now() > deadline) throw new Error(`${what}: timed out`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Whether xfreerdp shows the remote desktop: its window is viewable on the virtual display. It maps
 * it once the RDP connection is made; until then, keys and clicks x11vnc puts on the display go
 * to its root window and are lost (docs/graphical.md, "RDP").
 */
function xfreerdpShown(env: NodeJS.ProcessEnv): Promise<boolean> {
  return windowShown(env, 'FreeRDP');
}

/** A loopback port forwarded to the target through the domain gateway (one tunnel per connection). */
async function gatewayForward(deps: GatewayDeps, t: GraphicalTarget, o: GraphicalOptions): Promise<net.Server> {
  const server = net.createServer((client) => {
    openTunnel(deps.db, o.lang, t.gateway!, t).then(
      ({ sock, jump }) => {
        client.pipe(sock).pipe(client);
        const end = () => {
          client.destroy();
          jump.end();
        };
        client.once('close', end);
        sock.once('close', end);
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function freerdpArgs(t: GraphicalTarget, o: GraphicalOptions, host: string, port: number, drive: string): string[] {
  const security = String(t.setting.security ?? 'any');
  const args = [
    `/v:${host}:${port}`,
    `/u:${t.username}`,
    '/from-stdin:force',
    '/cert:ignore',
    `/size:${o.width}x${o.height}`,
    '/bpp:24',
    '-wallpaper',
    '/log-level:ERROR',
  ];
  if (['rdp', 'tls', 'nla'].includes(security)) args.push(`/sec:${security}`);
  // The clipboard crosses only as the permission allows; the RFB relay filters each direction too.
  args.push(o.clipboard.copy || o.clipboard.paste ? '+clipboard' : '-clipboard');
  // Drive redirection only when the permission allows moving files: a folder of the session's own.
  if (o.drive.upload || o.drive.download) args.push(`/drive:Gatehouse,${drive}`);
  return args;
}

export async function startRdpBridge(deps: GatewayDeps, t: GraphicalTarget, o: GraphicalOptions): Promise<RdpBridge> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), DIR_PREFIX));
  fs.chmodSync(dir, 0o700);
  const helpers: HelperProcess[] = [];
  /** Each helper's process group is written down as it starts, for `reapOrphanedHelpers`. */
  const owned = (h: HelperProcess) => {
    helpers.push(h);
    fs.writeFileSync(path.join(dir, OWNER_FILE), [process.pid, ...helpers.map((x) => x.pid ?? 0)].join('\n'), {
      mode: 0o600,
    });
  };
  let forward: net.Server | undefined;
  const stop = async () => {
    await Promise.all(helpers.map((h) => h.stop()));
    forward?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const auth = path.join(dir, 'Xauthority');
    fs.writeFileSync(auth, xauthority(randomBytes(16)), { mode: 0o600 });
    const drive = path.join(dir, 'drive');
    fs.mkdirSync(drive, { mode: 0o700 });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, XAUTHORITY: auth };
    const xvfb = new HelperProcess(
      'Xvfb',
      ['-displayfd', '1', '-screen', '0', `${o.width}x${o.height}x24`, '-nolisten', 'tcp', '-auth', auth],
      { memory: 2 * GiB },
      { env },
    );
    owned(xvfb);
    let displayOut = '';
    xvfb.child.stdout!.on('data', (b: Buffer) => (displayOut += b.toString()));
    await until(() => /^\d+\n/.test(displayOut), helpers, 'Xvfb');
    const display = `:${displayOut.trim()}`;
    const target = t.gateway ? { host: '127.0.0.1', port: 0 } : { host: t.host, port: t.port };
    if (t.gateway) {
      forward = await gatewayForward(deps, t, o);
      target.port = (forward.address() as net.AddressInfo).port;
    }
    const rdp = new HelperProcess(
      'xfreerdp',
      freerdpArgs(t, o, target.host, target.port, drive),
      { memory: 4 * GiB },
      {
        env: { ...env, DISPLAY: display },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    owned(rdp);
    // `/from-stdin:force` asks for the password before connecting (the username is given).
    rdp.child.stdin!.on('error', () => undefined);
    rdp.child.stdin!.end(`${t.password}\n`);
    const vncPassword = randomBytes(6).toString('base64url').slice(0, 8);
    const pwFile = path.join(dir, 'vncpasswd');
    fs.writeFileSync(pwFile, vncPasswordFile(vncPassword), { mode: 0o600 });
    const socket = path.join(dir, 'rfb.sock');
    const x11vnc = new HelperProcess(
      'x11vnc',
      [
        '-display',
        display,
        '-auth',
        auth,
        '-unixsock',
        socket,
        '-rfbport',
        '0',
        '-rfbauth',
        pwFile,
        '-forever',
        '-shared',
        '-nopw',
        '-quiet',
        '-noxdamage',
        '-wait',
        '10',
        '-defer',
        '10',
      ],
      { memory: 2 * GiB },
      { env },
    );
    owned(x11vnc);
    await until(() => fs.existsSync(socket), helpers, 'RDP');
    // The browser is answered once the remote desktop is shown, so that nothing it sends is lost.
    await until(() => xfreerdpShown({ ...env, DISPLAY: display }), helpers, 'RDP connection');
    return {
      socket,
      vncPassword,
      pids: () => helpers.map((h) => h.pid).filter((p): p is number => Boolean(p)),
      onEnd: (f) => rdp.onExit(f),
      stop,
    };
  } catch (e) {
    await stop();
    throw new GatewayError('graphical_rdp_unavailable', o.lang, { error: (e as Error).message.slice(0, 300) });
  }
}
