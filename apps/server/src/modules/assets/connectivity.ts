import net from 'node:net';
import ssh2 from 'ssh2';

/**
 * Reachability probes: a TCP connect; for SSH a full protocol handshake (key exchange), for
 * PostgreSQL, MySQL and MariaDB the server's first answer.
 */

export interface ProbeResult {
  name: string;
  port: number;
  ok: boolean;
  error?: string;
}

const TIMEOUT_MS = 5000;

export function tcpProbe(host: string, port: number, timeout = TIMEOUT_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (err?: string) => {
      s.destroy();
      resolve(err);
    };
    s.setTimeout(timeout, () => done('timeout'));
    s.once('connect', () => done());
    s.once('error', (e) => done(e.message));
  });
}

/**
 * A database server's own answer, without logging in: PostgreSQL answers an SSLRequest with one
 * byte (`S` or `N`), MySQL and MariaDB greet with a handshake packet (protocol 10, or an ERR packet
 * naming why it will not talk to this host). A port that accepts TCP but says anything else is not
 * the database.
 */
export function dbProbe(kind: 'postgresql' | 'mysql', host: string, port: number, timeout = TIMEOUT_MS) {
  return new Promise<string | undefined>((resolve) => {
    const s = net.connect({ host, port });
    let got = Buffer.alloc(0);
    const done = (err?: string) => {
      s.destroy();
      resolve(err);
    };
    s.setTimeout(timeout, () => done('timeout'));
    s.once('error', (e) => done(e.message));
    s.once('close', () => done('connection closed without a database answer'));
    s.once('connect', () => {
      if (kind === 'postgresql') s.write(Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]));
    });
    s.on('data', (b: Buffer) => {
      got = Buffer.concat([got, b]);
      if (kind === 'postgresql')
        return done(got[0] === 0x53 || got[0] === 0x4e ? undefined : 'not a PostgreSQL server');
      if (got.length < 5) return;
      const first = got[4];
      if (first === 10) return done();
      if (first === 0xff)
        return done(
          got
            .toString('utf8', 7)
            .replace(/^#\w{5}/, '')
            .trim() || 'refused',
        );
      done('not a MySQL server');
    });
  });
}

const DB_PROBES: Record<string, 'postgresql' | 'mysql'> = {
  postgresql: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mysql',
};

/**
 * Connects over SSH until the key exchange is done (`handshake`, a reachability probe) or the
 * login succeeded (`ready`); undefined when it got there, else why not.
 */
export function sshAttempt(config: ssh2.ConnectConfig, until: 'handshake' | 'ready'): Promise<string | undefined> {
  return new Promise((resolve) => {
    const c = new ssh2.Client();
    let settled = false;
    const done = (err?: string) => {
      if (settled) return;
      settled = true;
      c.end();
      resolve(err);
    };
    if (until === 'ready') c.on('ready', () => done());
    else c.on('handshake', () => done());
    c.on('error', (e: Error) => done(e.message));
    c.on('close', () =>
      done(
        until === 'ready' ? 'connection closed before authentication' : 'connection closed before the SSH handshake',
      ),
    );
    try {
      c.connect({ readyTimeout: TIMEOUT_MS, tryKeyboard: false, ...config });
    } catch (e) {
      done((e as Error).message);
    }
  });
}

export function sshProbe(host: string, port: number, timeout = TIMEOUT_MS): Promise<string | undefined> {
  return sshAttempt(
    { host, port, username: 'gatehouse-probe', readyTimeout: timeout, authHandler: () => false },
    'handshake',
  );
}

/** Host and port a protocol connects to: URLs (http, k8s, chatgpt) carry their own. */
export function targetOf(address: string, protocol: { name: string; port: number }): { host: string; port: number } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(address)) {
    try {
      const u = new URL(address);
      const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
      return { host: u.hostname, port };
    } catch {
      return { host: address, port: protocol.port };
    }
  }
  return { host: address, port: protocol.port };
}

export async function probe(
  address: string,
  protocols: { name: string; port: number }[],
): Promise<{ connectivity: 'ok' | 'err' | '-'; results: ProbeResult[] }> {
  const results: ProbeResult[] = [];
  for (const p of protocols) {
    const t = targetOf(address, p);
    const db = DB_PROBES[p.name];
    const err =
      p.name === 'ssh' || p.name === 'sftp'
        ? await sshProbe(t.host, t.port)
        : db
          ? await dbProbe(db, t.host, t.port)
          : await tcpProbe(t.host, t.port);
    results.push({ name: p.name, port: t.port, ok: !err, ...(err ? { error: err } : {}) });
  }
  if (!results.length) return { connectivity: '-', results };
  return { connectivity: results.every((r) => r.ok) ? 'ok' : 'err', results };
}
