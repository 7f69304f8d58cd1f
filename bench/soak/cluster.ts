import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../gatewayClients.ts';
import { startShellSshd, type SshdWithUsers } from '../../apps/server/test-support/sshd.ts';
import { startS3, type TestS3 } from '../../apps/server/test-support/s3.ts';
import { freePort } from '../../apps/server/test-support/ports.ts';
import { haproxyConfig } from './haproxyConfig.ts';
import { ID_HEADER } from './load.ts';

/**
 * The soak's deployment on loopback, as docs/deploy.md describes it: a PostgreSQL database of its
 * own, Redis (a prefix of its own), an S3 store (s3rver), two instances of `main.ts` in child
 * processes with data folders of their own and the same GATEHOUSE_SECRET_KEY, HAProxy (Debian's
 * `haproxy`) in front for HTTP and websockets and for the native SSH port as TCP, and a real sshd
 * as the asset.
 */
export interface Instance extends ServerProcess {
  name: string;
  sshPort: number;
  /** `kill -9`: no chance to clean up. */
  kill(): void;
}

export interface Cluster {
  /** HAProxy's HTTP front. */
  lb: string;
  /** HAProxy's native SSH front. */
  lbSshPort: number;
  instances: Instance[];
  sshd: SshdWithUsers;
  s3: TestS3;
  password: string;
  /** The soak's database, for the checks that read rows. */
  sql: pg.Client;
  /** The instance that answered (or failed) each request carrying ID_HEADER, from HAProxy's log. */
  servedBy: Map<string, { server: string; status: number; state: string }>;
  stop(): Promise<void>;
}

export const SOAK_PASSWORD = 'Soak-pass-1';

/** `option httplog`: `... web gatehouse/<server> Tq/Tw/Tc/Tr/Ta <status> <bytes> - - <state> ... {<id>} "..."`. */
const LOG_LINE = / web gatehouse\/(\S+) \S+ (-?\d+) \S+ \S+ \S+ (\S+) .*?\{([^}]*)\}/;

/** HAProxy's log, one datagram a line, on a loopback UDP port; answers the port. */
async function logReceiver(servedBy: Cluster['servedBy']): Promise<{ port: number; close(): void }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (b) => {
    const l = b.toString('utf8');
    if (process.env.SOAK_HAPROXY_LOG) fs.appendFileSync(process.env.SOAK_HAPROXY_LOG, l.endsWith('\n') ? l : `${l}\n`);
    const m = LOG_LINE.exec(l);
    if (m) servedBy.set(m[4]!, { server: m[1]!, status: Number(m[2]), state: m[3]! });
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  socket.setRecvBufferSize(8 * 1024 * 1024);
  return { port: socket.address().port, close: () => socket.close() };
}

async function startHaproxy(dir: string, cfg: string): Promise<ChildProcess> {
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, cfg);
  // -db: foreground, no daemon, so the soak owns the process.
  const child = spawn('/usr/sbin/haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, 300);
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`haproxy exited (${code}): ${err}`));
    });
  });
  return child;
}

async function waitHealthy(base: string, ms = 60_000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const ok = await fetch(`${base}/api/health/`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() - t0 > ms) throw new Error(`${base} did not become healthy`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startCluster(opts: { sessions: number; instances?: number }): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-soak-'));
  const pgUrl =
    process.env.SOAK_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.SOAK_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const dbName = `gh_soak_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(pgUrl);
  dbUrl.pathname = `/${dbName}`;
  const cleanups: (() => Promise<unknown> | unknown)[] = [
    async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    },
    () => fs.rmSync(dir, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  };
  try {
    const [sshd, s3] = await Promise.all([
      startShellSshd({ config: [`MaxStartups ${opts.sessions + 50}`, `MaxSessions ${opts.sessions + 50}`] }),
      startS3(),
    ]);
    cleanups.push(
      () => sshd.stop(),
      () => s3.stop(),
    );
    const shared = {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `gh-soak-${randomBytes(4).toString('hex')}:`,
      GATEHOUSE_SECRET_KEY: randomBytes(32).toString('base64'),
      GATEHOUSE_ADMIN_PASSWORD: SOAK_PASSWORD,
      TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: 'silent',
      // The killed instance's sessions are ended 3 heartbeats after the kill, and each recording is
      // streamed to the store every half second (docs/deploy.md, "An instance that dies").
      GATEWAY_HEARTBEAT_MS: '1000',
      REPLAY_STREAM_MS: '500',
    };
    const instances: Instance[] = [];
    // One after the other: the first migrates and seeds, the next finds it done.
    for (let i = 0; i < (opts.instances ?? 2); i++) {
      const name = String.fromCharCode(97 + i);
      const sshPort = await freePort();
      const p = await startServerProcess({
        ...shared,
        DATA_DIR: path.join(dir, `data-${name}`),
        GATEHOUSE_SSH_PORT: String(sshPort),
      });
      instances.push({ ...p, name, sshPort, kill: () => process.kill(p.pid, 'SIGKILL') });
      cleanups.push(() => (isAlive(p.pid) ? p.stop() : undefined));
    }
    const [httpPort, sshFront, statsPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const servedBy: Cluster['servedBy'] = new Map();
    const logs = await logReceiver(servedBy);
    cleanups.push(() => logs.close());
    const haproxy = await startHaproxy(
      dir,
      haproxyConfig({
        http: `127.0.0.1:${httpPort}`,
        ssh: `127.0.0.1:${sshFront}`,
        stats: `127.0.0.1:${statsPort}`,
        servers: instances.map((s) => ({
          name: s.name,
          http: s.base.replace('http://', ''),
          ssh: `127.0.0.1:${s.sshPort}`,
        })),
        checkIntervalMs: 1000,
        logHeader: ID_HEADER,
        logTo: `127.0.0.1:${logs.port}`,
      }),
    );
    cleanups.push(() => {
      haproxy.kill('SIGTERM');
    });
    const lb = `http://127.0.0.1:${httpPort}`;
    await waitHealthy(lb);
    // Both servers up in HAProxy's eyes before the load starts.
    await new Promise((r) => setTimeout(r, 2500));
    const sql = new pg.Client({ connectionString: dbUrl.toString() });
    await sql.connect();
    cleanups.push(() => sql.end());
    return { lb, lbSshPort: sshFront, instances, sshd, s3, password: SOAK_PASSWORD, sql, servedBy, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
