import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { registerDbVerification } from './dbVerify.ts';
import { serveMysql } from './mysqlProxy.ts';
import { servePg } from './pgProxy.ts';
import { proxyTlsContext } from './proxyTls.ts';

/**
 * The database proxies' listeners, next to the native SSH server on the API's host:
 * `GATEHOUSE_POSTGRESQL_PORT` (PostgreSQL wire protocol, `pgProxy.ts`) and `GATEHOUSE_MYSQL_PORT`
 * (MySQL/MariaDB, `mysqlProxy.ts`); 0 (the default) leaves one off. A port that cannot be had
 * stops start-up with one line naming its setting, as the SSH port does.
 */
type Serve = (app: FastifyInstance, sock: net.Socket, ip: string) => void;

const listeners = new WeakMap<FastifyInstance, Map<string, net.Server>>();

/** The port a proxy listens on (tests), or undefined when it is off. */
export function dbProxyPort(app: FastifyInstance, setting: 'GATEHOUSE_POSTGRESQL_PORT' | 'GATEHOUSE_MYSQL_PORT') {
  const a = listeners.get(app)?.get(setting)?.address();
  return a && typeof a === 'object' ? a.port : undefined;
}

function listenError(setting: string, e: NodeJS.ErrnoException, port: number, host: string): string {
  const off = `or set ${setting}=0 to run without this proxy`;
  if (e.code === 'EADDRINUSE') return `${setting}: ${port} is already in use on ${host}; choose another port ${off}`;
  if (e.code === 'EACCES') return `${setting}: not allowed to listen on ${port}; use a port above 1023 ${off}`;
  return `${setting}: cannot listen on ${host}:${port} (${e.message}); ${off}`;
}

function register(app: FastifyInstance, setting: string, port: number, serve: Serve): void {
  if (!port) return;
  const { host } = app.deps.config;
  app.addHook('onReady', async () => {
    // The TLS certificate is read (or made, once) now rather than at a client's first SSLRequest.
    proxyTlsContext(app.deps.config.dataDir, host);
    const sockets = new Set<net.Socket>();
    const server = net.createServer((sock) => {
      sock.setNoDelay(true);
      sockets.add(sock);
      sock.once('close', () => sockets.delete(sock));
      serve(app, sock, (sock.remoteAddress ?? '').replace(/^::ffff:/, ''));
    });
    (server as net.Server & { gatehouseSockets?: Set<net.Socket> }).gatehouseSockets = sockets;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e: NodeJS.ErrnoException) =>
        reject(Object.assign(new Error(listenError(setting, e, port, host)), { setting })),
      );
      server.listen(port, host, () => resolve());
    });
    let map = listeners.get(app);
    if (!map) listeners.set(app, (map = new Map()));
    map.set(setting, server);
    app.log.info({ port }, `${setting === 'GATEHOUSE_MYSQL_PORT' ? 'MySQL' : 'PostgreSQL'} proxy listening`);
  });
  app.addHook('onClose', async () => {
    const server = listeners.get(app)?.get(setting) as
      (net.Server & { gatehouseSockets?: Set<net.Socket> }) | undefined;
    if (!server) return;
    for (const s of server.gatehouseSockets ?? []) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

export function registerDbProxies(app: FastifyInstance): void {
  const { config } = app.deps;
  registerDbVerification(app);
  register(app, 'GATEHOUSE_POSTGRESQL_PORT', config.postgresqlPort, (a, s, ip) =>
    servePg(a, s, ip, { loginFrom: 'ST' }),
  );
  register(app, 'GATEHOUSE_MYSQL_PORT', config.mysqlPort, (a, s, ip) => serveMysql(a, s, ip, { loginFrom: 'ST' }));
}
