/**
 * The HAProxy configuration of docs/deploy.md, with the soak's addresses: HTTP and websockets to
 * every instance (health checked on `/api/health/`, a request that cannot reach a server sent to
 * another), and the native SSH port as a TCP stream. Keep the two in step.
 */
export interface HaproxyOptions {
  http: string;
  ssh: string;
  stats: string;
  servers: { name: string; http: string; ssh: string }[];
  checkIntervalMs: number;
  /** A request header logged with each request (`option httplog` to `logTo`), or none. */
  logHeader?: string;
  /** Where the log goes: a UDP syslog address (stdout drops lines when the reader lags). */
  logTo?: string;
}

export function haproxyConfig(o: HaproxyOptions): string {
  const check = `check inter ${o.checkIntervalMs} fall 3 rise 2`;
  const log = o.logHeader && o.logTo ? `  log ${o.logTo} len 2048 format raw local0\n` : '';
  return `global
  maxconn 4000
${log}
defaults
  mode http
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout tunnel 1h
  timeout http-request 10s
  # A busy instance answers health late; it is not down for that.
  timeout check 5s
  # A request that could not reach an instance (it is down) goes to another; one it reached is not
  # sent twice, as a write may have been done.
  retries 3
  option redispatch 1
  retry-on conn-failure
  # A fresh server connection per request: one to an instance just killed is refused (and sent to
  # another) instead of a kept-alive one failing with the request on it.
  option http-server-close

frontend web
  bind ${o.http}
  option forwardfor
${o.logHeader ? `  log global\n  option httplog\n  capture request header ${o.logHeader} len 24\n` : ''}  default_backend gatehouse

backend gatehouse
  balance leastconn
  option httpchk GET /api/health/
  http-check expect status 200
${o.servers.map((s) => `  server ${s.name} ${s.http} ${check}`).join('\n')}

frontend ssh
  mode tcp
  bind ${o.ssh}
  timeout client 1h
  default_backend gatehouse_ssh

backend gatehouse_ssh
  mode tcp
  balance leastconn
${o.servers.map((s) => `  server ${s.name} ${s.ssh} ${check} port ${s.http.split(':')[1]}`).join('\n')}
  option httpchk GET /api/health/

frontend stats
  bind ${o.stats}
  stats enable
  stats uri /
`;
}
