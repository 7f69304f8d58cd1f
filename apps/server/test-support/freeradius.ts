import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throw-away FreeRADIUS 3 server (Debian's `freeradius`, installed by scripts/setup-machine.sh) on
 * 127.0.0.1 for tests: its own config directory (only the pap and files modules), one client
 * 127.0.0.1 with `secret`, the users file holding clear-text passwords, no reject delay. It runs
 * in the foreground under a shell that kills it when its stdin closes, so it ends with the test
 * process however that ends; `stop()` ends it at once. Imports nothing of the server.
 */

export interface RadiusUser {
  username: string;
  password: string;
}

export interface FreeRadius {
  host: string;
  port: number;
  secret: string;
  stop(): void;
}

/** A UDP port of 127.0.0.1 free at the time of the call. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export async function startFreeradius(users: RadiusUser[], secret = 'Radius-secret-1'): Promise<FreeRadius> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-radius-'));
  const port = await freeUdpPort();
  fs.writeFileSync(path.join(dir, 'dictionary'), '');
  fs.writeFileSync(
    path.join(dir, 'users'),
    users.map((u) => `${quote(u.username)} Cleartext-Password := ${quote(u.password)}\n`).join(''),
  );
  fs.writeFileSync(
    path.join(dir, 'radiusd.conf'),
    `prefix = /usr
exec_prefix = /usr
sysconfdir = /etc
localstatedir = ${dir}
sbindir = /usr/sbin
logdir = ${dir}
raddbdir = ${dir}
radacctdir = ${dir}
name = radiusd
confdir = ${dir}
run_dir = ${dir}
db_dir = ${dir}
libdir = /usr/lib/freeradius
pidfile = ${dir}/radiusd.pid
max_request_time = 5
cleanup_delay = 1
max_requests = 1024
hostname_lookups = no
log {
  destination = stdout
}
security {
  allow_core_dumps = no
  reject_delay = 0
}
client localhost {
  ipaddr = 127.0.0.1
  secret = ${quote(secret)}
}
modules {
  pap {
  }
  files {
    filename = ${dir}/users
  }
}
server default {
  listen {
    type = auth
    ipaddr = 127.0.0.1
    port = ${port}
  }
  authorize {
    files
    pap
  }
  authenticate {
    Auth-Type PAP {
      pap
    }
  }
}
`,
  );
  const child = spawn(
    '/bin/sh',
    ['-c', 'freeradius -f -l stdout -d "$1" -n radiusd & pid=$!; cat >/dev/null; kill $pid; wait $pid', 'sh', dir],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  child.unref();
  (child.stdin as unknown as net.Socket | null)?.unref();
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Ready to process requests')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', () => reject(new Error(`freeradius ended before it was ready:\n${output}`)));
  });
  (child.stdout as unknown as net.Socket | null)?.unref();
  (child.stderr as unknown as net.Socket | null)?.unref();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    child.stdin?.end();
    try {
      const pid = Number(fs.readFileSync(path.join(dir, 'radiusd.pid'), 'utf8'));
      if (pid) process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  return { host: '127.0.0.1', port, secret, stop };
}

/** The `radius` settings category pointed at a test server. */
export function radiusSettings(r: Pick<FreeRadius, 'host' | 'port' | 'secret'>, extra: Record<string, unknown> = {}) {
  return { AUTH_RADIUS: true, RADIUS_SERVER: r.host, RADIUS_PORT: r.port, RADIUS_SECRET: r.secret, ...extra };
}
