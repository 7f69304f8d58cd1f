import { Client, type ClientChannel } from 'ssh2';
import { signIn } from '../client.ts';
import { socketClient } from '../../apps/server/test-support/webTerminal.ts';
import { WEB_TERMINAL_SOCKET_PATH } from '../../apps/server/src/modules/terminal/webTerminalSocket.ts';

/**
 * The soak's load: an open-loop HTTP mix at a fixed rate (each request timed from when it was due),
 * closed-loop reads for throughput, and terminals (web through the balancer's websockets, native
 * SSH through its TCP front) typing a numbered command every second, each command's output seen
 * being its acknowledgement.
 */
export interface Sample {
  n: number;
  kind: string;
  /** When it was due (latency counts from here). */
  start: number;
  /** When it was handed to fetch (a busy load generator sends late). */
  sent: number;
  end: number;
  ok: boolean;
  status: number;
  error?: string;
}

export type Headers = Record<string, string>;

export interface Fixture {
  headers: Headers;
  userIds: string[];
  hostId: string;
  accountName: string;
  hostName: string;
}

/** Each request's number, which HAProxy logs with the instance that answered it (cluster.ts). */
export const ID_HEADER = 'x-soak-id';

type Op = { kind: string; weight: number; run(base: string, f: Fixture, n: number): Promise<number> };

const get = async (url: string, h: Headers) => {
  const res = await fetch(url, { headers: h, signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  return res.status;
};

/** Created users' ids (status 201), for the lost-writes check. */
export const created: string[] = [];

export const MIX: Op[] = [
  {
    kind: 'list users',
    weight: 25,
    run: (b, f, n) => get(`${b}/api/v1/users/users/?search=soak-${n % 10}&limit=20`, f.headers),
  },
  { kind: 'list assets', weight: 15, run: (b, f) => get(`${b}/api/v1/assets/assets/?search=soak&limit=20`, f.headers) },
  {
    kind: 'detail',
    weight: 20,
    run: (b, f, n) => get(`${b}/api/v1/users/users/${f.userIds[n % f.userIds.length]}/`, f.headers),
  },
  {
    kind: 'write',
    weight: 10,
    async run(b, f, n) {
      const name = `soakw-${process.pid}-${n}`;
      const res = await fetch(`${b}/api/v1/users/users/`, {
        method: 'POST',
        headers: f.headers,
        body: JSON.stringify({ name, username: name, email: `${name}@example.com`, password_strategy: 'email' }),
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await res.json()) as { id?: string };
      if (res.status === 201 && body.id) created.push(body.id);
      return res.status;
    },
  },
  { kind: 'export', weight: 5, run: (b, f) => get(`${b}/api/v1/users/users/?format=csv&search=soak`, f.headers) },
  {
    kind: 'sign-in',
    weight: 5,
    run: async (b, f) => {
      await signIn(b, SIGN_IN_PASSWORD.value, { [ID_HEADER]: f.headers[ID_HEADER] ?? '' });
      return 200;
    },
  },
  {
    kind: 'token',
    weight: 20,
    async run(b, f) {
      const res = await fetch(`${b}/api/v1/authentication/connection-token/`, {
        method: 'POST',
        headers: f.headers,
        body: JSON.stringify({ asset: f.hostId, account: f.accountName, protocol: 'ssh', connect_method: 'web_cli' }),
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      return res.status;
    },
  },
];

export const SIGN_IN_PASSWORD = { value: '' };

const TOTAL = MIX.reduce((s, o) => s + o.weight, 0);
function pick(n: number): Op {
  let r = (n * 7919) % TOTAL;
  for (const o of MIX) {
    if (r < o.weight) return o;
    r -= o.weight;
  }
  return MIX[0]!;
}

async function one(base: string, f: Fixture, op: Op, n: number, due: number, out: Sample[]): Promise<void> {
  let status = 0;
  let error: string | undefined;
  const sent = performance.now();
  try {
    status = await op.run(base, { ...f, headers: { ...f.headers, [ID_HEADER]: String(n) } }, n);
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    error = cause?.code ?? cause?.message ?? (e as Error).message;
  }
  out.push({
    n,
    kind: op.kind,
    start: due,
    sent,
    end: performance.now(),
    ok: status > 0 && status < 400,
    status,
    ...(error ? { error } : {}),
  });
}

/** `rate` requests a second of the mix until `stop()`; answers the samples. */
export function openLoop(base: string, f: Fixture, rate: number) {
  const samples: Sample[] = [];
  const pending = new Set<Promise<void>>();
  let n = 0;
  const t0 = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    while (n < ((now - t0) / 1000) * rate) {
      const due = t0 + (n / rate) * 1000;
      const p = one(base, f, pick(n), n, due, samples);
      n++;
      pending.add(p);
      void p.finally(() => pending.delete(p));
    }
  }, 5);
  return {
    samples,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return samples;
    },
  };
}

/** Closed loop: `workers` clients reading as fast as answered for `ms`; answers requests a second. */
export async function closedLoop(base: string, f: Fixture, workers: number, ms: number): Promise<number> {
  const reads = MIX.filter((o) => o.kind === 'list users' || o.kind === 'detail' || o.kind === 'list assets');
  let done = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; performance.now() < until; i += workers) {
        const status = await reads[i % reads.length]!.run(base, f, i).catch(() => 0);
        if (status === 200) done++;
      }
    }),
  );
  return done / (ms / 1000);
}

export interface Typed {
  marker: string;
  sent: number;
  acked?: number;
}

export interface SoakTerminal {
  kind: 'web' | 'ssh';
  label: string;
  sessionId?: string;
  typed: Typed[];
  closedAt?: number;
  type(marker: string): void;
  close(): Promise<void>;
}

/** The command each tick types: its output (`<marker>-2`) is not in the typed text. */
export const commandOf = (marker: string) => `echo ${marker}-$((1+1))`;

function track(t: SoakTerminal, text: () => string) {
  let seen = 0;
  return () => {
    const all = text();
    for (const c of t.typed)
      if (!c.acked && all.includes(`${c.marker}-2`, seen > 200 ? seen - 200 : 0)) c.acked = performance.now();
    seen = all.length;
  };
}

export async function webTerminal(base: string, token: string, label: string): Promise<SoakTerminal> {
  const c = socketClient(`${base.replace('http', 'ws')}${WEB_TERMINAL_SOCKET_PATH}?token=${token}&cols=100&rows=30`);
  await c.waitFor(() => c.text().includes('gh$ '), `the prompt of ${label}`, 60_000);
  const t: SoakTerminal = {
    kind: 'web',
    label,
    sessionId: c.msgs.find((m) => m.type === 'CONNECT')?.id,
    typed: [],
    type(marker) {
      t.typed.push({ marker, sent: performance.now() });
      c.ws.send(JSON.stringify({ type: 'TERMINAL_DATA', data: `${commandOf(marker)}\r` }));
    },
    async close() {
      if (t.closedAt) return;
      c.ws.send(JSON.stringify({ type: 'CLOSE' }));
      await c.closed;
    },
  };
  const check = track(t, c.text);
  c.ws.on('message', check);
  void c.closed.then(() => (t.closedAt ??= performance.now()));
  return t;
}

export async function sshTerminal(
  port: number,
  username: string,
  password: string,
  label: string,
): Promise<SoakTerminal> {
  const client = new Client();
  await new Promise<void>((resolve, reject) =>
    client
      .once('ready', () => resolve())
      .once('error', reject)
      .connect({ host: '127.0.0.1', port, username, password, readyTimeout: 60_000 }),
  );
  const stream = await new Promise<ClientChannel>((resolve, reject) =>
    client.shell({ term: 'xterm', cols: 100, rows: 30 }, (err, ch) => (err ? reject(err) : resolve(ch))),
  );
  let text = '';
  const t: SoakTerminal = {
    kind: 'ssh',
    label,
    typed: [],
    type(marker) {
      t.typed.push({ marker, sent: performance.now() });
      stream.write(`${commandOf(marker)}\r`);
    },
    async close() {
      if (t.closedAt) return;
      const closed = new Promise<void>((r) => client.once('close', () => r()));
      stream.end('exit\r');
      client.end();
      await closed;
    },
  };
  const check = track(t, () => text);
  stream.on('data', (d: Buffer) => {
    text += d.toString('utf8');
    check();
  });
  client.on('error', () => undefined);
  client.once('close', () => (t.closedAt ??= performance.now()));
  for (let i = 0; !text.includes('gh$ '); i++) {
    if (i > 3000) throw new Error(`no prompt on ${label}: ${text.slice(-300)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return t;
}
