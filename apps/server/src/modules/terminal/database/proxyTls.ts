import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { Duplex } from 'node:stream';

/**
 * TLS of the database proxies towards clients (PostgreSQL's SSLRequest, MySQL's CLIENT_SSL), so
 * the Gatehouse password a client sends in clear travels encrypted. The certificate and key are
 * `DATA_DIR/db-proxy.crt` and `db-proxy.key`: an operator puts their own there; when absent, a
 * self-signed one (P-256, ten years, CN = the host name) is made at the first start with the
 * `openssl` program (an argument list). Without `openssl` and without files, the proxies refuse TLS.
 */
let cached: { dir: string; ctx: tls.SecureContext | undefined } | undefined;

export function proxyTlsContext(dataDir: string, host = 'gatehouse'): tls.SecureContext | undefined {
  if (cached?.dir === dataDir) return cached.ctx;
  const cert = path.join(dataDir, 'db-proxy.crt');
  const key = path.join(dataDir, 'db-proxy.key');
  let ctx: tls.SecureContext | undefined;
  try {
    if (!fs.existsSync(cert) || !fs.existsSync(key)) {
      fs.mkdirSync(dataDir, { recursive: true });
      const tmp = `${key}.${process.pid}`;
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650'].concat(
          [
            '-subj',
            `/CN=${host.replace(/[^\w.-]/g, '') || 'gatehouse'}`,
            '-keyout',
            tmp,
            '-out',
            `${cert}.${process.pid}`,
          ],
        ),
        { stdio: 'ignore', timeout: 20_000 },
      );
      fs.chmodSync(tmp, 0o600);
      // Two instances sharing DATA_DIR: the first pair renamed in place wins for both files.
      if (!fs.existsSync(key)) {
        fs.renameSync(tmp, key);
        fs.renameSync(`${cert}.${process.pid}`, cert);
      } else {
        fs.rmSync(tmp, { force: true });
        fs.rmSync(`${cert}.${process.pid}`, { force: true });
      }
    }
    ctx = tls.createSecureContext({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) });
  } catch {
    ctx = undefined;
  }
  cached = { dir: dataDir, ctx };
  return ctx;
}

/**
 * The client's connection continued in TLS (the proxy as the server). `head`: bytes of the TLS
 * handshake already read from the connection (a MySQL client sends its ClientHello right behind
 * the SSLRequest, without waiting), handed to TLS first through a bridge stream.
 */
export function acceptTls(sock: Duplex, ctx: tls.SecureContext, head?: Buffer): tls.TLSSocket {
  let under: Duplex = sock;
  if (head?.length) {
    const bridge = new Duplex({
      read: () => sock.resume(),
      write: (chunk: Buffer, _enc, cb) => void sock.write(chunk, cb),
      final: (cb) => {
        sock.end();
        cb();
      },
      destroy: (err, cb) => {
        sock.destroy();
        cb(err);
      },
    });
    bridge.push(head);
    sock.on('data', (b: Buffer) => {
      if (!bridge.push(b)) sock.pause();
    });
    sock.on('end', () => bridge.push(null));
    sock.on('error', () => bridge.destroy());
    sock.on('close', () => bridge.destroy());
    under = bridge;
  }
  const secure = new tls.TLSSocket(under as never, { isServer: true, secureContext: ctx });
  secure.on('error', () => undefined);
  return secure;
}
