import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocketServer } from 'ws';

/**
 * A small fake Kubernetes API server for the tests (no real cluster can run on this machine):
 * HTTPS on 127.0.0.1 with a self-signed certificate made by the openssl CLI, bearer-token
 * authentication (a wrong token is the real 401 Status), the real REST paths the gateway uses
 * (`/api/v1/namespaces`, `.../pods`, `.../pods/<pod>`) and the real exec WebSocket
 * (`.../pods/<pod>/exec?container=&command=&stdin=&stdout=&stderr=&tty=`, subprotocol
 * `v4.channel.k8s.io`: one channel byte before each message). The exec runs the requested command
 * for real under a pty (`script -qfc <command> /dev/null`), with the prompt `gh$ ` (dash reads
 * `$ENV`), so what is typed is really run; a container named `no-shell` answers the exec's failure
 * Status on channel 3, as for an image without the shell. Namespaces, pods and containers are the `cluster` given.
 */
export type Cluster = Record<string, Record<string, string[]>>;

export interface FakeK8s {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  token: string;
  /** Every request: method, path with query, whether the bearer was right. */
  requests: { method: string; path: string; authorized: boolean }[];
  /** Channel-4 resize messages received by execs. */
  resizes: { Width: number; Height: number }[];
  stop(): Promise<void>;
}

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

function selfSigned(dir: string): { key: Buffer; cert: Buffer } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=fake-k8s',
  ], { stdio: 'ignore' }); // prettier-ignore
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

export async function startFakeK8s(cluster: Cluster, token = 'fake-k8s-token'): Promise<FakeK8s> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-k8s-'));
  const rc = path.join(dir, 'shrc');
  const home = path.join(dir, 'home');
  mkdirSync(home);
  writeFileSync(rc, "PS1='gh$ '\n");
  const requests: FakeK8s['requests'] = [];
  const resizes: FakeK8s['resizes'] = [];
  const authorized = (h: string | undefined) => h === `Bearer ${token}`;
  const server = https.createServer(selfSigned(dir), (req, res) => {
    const ok = authorized(req.headers.authorization);
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorized: ok });
    const send = (code: number, body: string) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(body);
    };
    if (!ok) return send(401, status(401, 'Unauthorized', 'Unauthorized'));
    const u = new URL(req.url ?? '/', 'https://x');
    const parts = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts.join('/') === 'api/v1/namespaces')
      return send(200, JSON.stringify({ kind: 'NamespaceList', items: Object.keys(cluster).map(item) }));
    const [a, v, nsWord, ns, podsWord, pod, extra] = parts;
    const pods = a === 'api' && v === 'v1' && nsWord === 'namespaces' && podsWord === 'pods' ? cluster[ns!] : undefined;
    if (pods && parts.length === 5)
      return send(200, JSON.stringify({ kind: 'PodList', items: Object.keys(pods).map(item) }));
    if (pods && parts.length === 6 && pods[pod!] && !extra)
      return send(
        200,
        JSON.stringify({
          kind: 'Pod',
          metadata: { name: pod, namespace: ns },
          spec: { containers: pods[pod!]!.map((name) => ({ name })) },
        }),
      );
    send(404, status(404, 'NotFound', `${u.pathname} not found`));
  });
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('v4.channel.k8s.io') ? 'v4.channel.k8s.io' : false),
  });
  server.on('upgrade', (req, socket, head) => {
    const ok = authorized(req.headers.authorization);
    requests.push({ method: 'WS', path: req.url ?? '', authorized: ok });
    const u = new URL(req.url ?? '/', 'https://x');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/exec$/.exec(u.pathname);
    const container = u.searchParams.get('container') ?? '';
    const command = u.searchParams.getAll('command');
    const refuse = (code: number, body: string) => {
      socket.end(
        `HTTP/1.1 ${code} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    };
    if (!ok) return refuse(401, status(401, 'Unauthorized', 'Unauthorized'));
    const containers = m ? cluster[decodeURIComponent(m[1]!)]?.[decodeURIComponent(m[2]!)] : undefined;
    if (!containers?.includes(container)) return refuse(404, status(404, 'NotFound', 'container not found'));
    if (command.length !== 1 || !/^\/[\w/]+$/.test(command[0]!) || u.searchParams.get('tty') !== 'true')
      return refuse(400, status(400, 'BadRequest', 'this fake runs one command path with a tty'));
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (container === 'no-shell') {
        // An image without the shell: the API server answers the exec's failure on channel 3.
        const message = `exec: "${command[0]}": stat ${command[0]}: no such file or directory`;
        ws.send(Buffer.concat([Buffer.of(3), Buffer.from(JSON.stringify({ status: 'Failure', message }))]));
        return ws.close(1000);
      }
      // Output at once, in the upgrade's turn: the gateway must not lose what comes before it listens.
      ws.send(Buffer.concat([Buffer.of(1), Buffer.from(`welcome to ${container}\r\n`)]));
      const child = spawn('script', ['-qfc', command[0]!, '/dev/null'], {
        env: { PATH: process.env.PATH, ENV: rc, TERM: 'xterm', HOME: home },
        cwd: home,
      });
      const out = (channel: number) => (b: Buffer) => ws.send(Buffer.concat([Buffer.of(channel), b]));
      child.stdout.on('data', out(1));
      child.stderr.on('data', out(2));
      child.on('exit', () => {
        if (ws.readyState === ws.OPEN)
          ws.send(Buffer.concat([Buffer.of(3), Buffer.from('{"metadata":{},"status":"Success"}')]));
        ws.close(1000);
      });
      ws.on('message', (data: Buffer) => {
        if (data[0] === 0) child.stdin.write(data.subarray(1));
        if (data[0] === 4) resizes.push(JSON.parse(data.subarray(1).toString('utf8')) as FakeK8s['resizes'][number]);
      });
      ws.on('close', () => child.kill('SIGHUP'));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    token,
    requests,
    resizes,
    stop: async () => {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const item = (name: string) => ({ metadata: { name } });
