import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sshHost } from '@gatehouse/server/test-support/sshAsset.ts';
import { startShellSshd, type SshdWithUsers } from '@gatehouse/server/test-support/sshd.ts';
import { signIn } from './client.ts';
import {
  inBatches,
  openDirectTerminal,
  openWebTerminal,
  startServerProcess,
  type BenchTerminal,
  type ServerProcess,
} from './gatewayClients.ts';
import { percentile } from './stats.ts';

/**
 * Issue 17's gateway benchmark, against a real OpenSSH on loopback (`test-support/sshd.ts`) and the
 * server of `main.ts` in a child process (SQLite), each figure next to ssh2 straight to the same
 * sshd in the same run:
 *  (a) `cat` of a BENCH_GW_CAT_MB (50) MB text file through the web terminal (WebSocket -> server ->
 *      ssh2 -> sshd, recorded, read by the command reader) against ssh2 directly. Goal: >= 0.8x.
 *  (b) BENCH_GW_SESSIONS (200) recorded web terminal sessions, each typing a short command every
 *      second for BENCH_GW_SECONDS (20) s: keystroke-to-echo latency p50/p99 against as many direct
 *      ssh2 sessions, and the server's CPU time and resident memory meanwhile.
 * BENCH_GW_PART=a|b runs one part; BENCH_GW_PROF=<dir> runs the server with --cpu-prof into <dir> (for the hot path).
 */
const CAT_MB = Number(process.env.BENCH_GW_CAT_MB ?? 50);
const SESSIONS = Number(process.env.BENCH_GW_SESSIONS ?? 200);
const SECONDS = Number(process.env.BENCH_GW_SECONDS ?? 20);
const RUNS = Number(process.env.BENCH_GW_RUNS ?? 5);
const PHASES = 4;
const PASSWORD = 'Bench-pass1';
/** What the shell prints at the end of a cat (the typed command shows `$((40+2))`, not the result). */
const END_MARK = 'END-42';
const END_CMD = 'echo END-$((40+2))';
const PROMPT = 'gh$ ';

async function waitUntil(test: () => boolean, what: string | (() => string), ms = 120_000): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Opens the terminal and waits for the first prompt. */
async function ready(open: () => Promise<BenchTerminal>): Promise<BenchTerminal> {
  const t = await open();
  let seen = '';
  t.onOutput((s) => (seen += s));
  await waitUntil(
    () => seen.includes(PROMPT),
    () => `the first prompt (seen ${JSON.stringify(seen.slice(-200))})`,
    60_000,
  );
  return t;
}

/** `cat` of the file to the end mark: seconds and characters received. */
async function catThrough(t: BenchTerminal, file: string): Promise<{ seconds: number; chars: number }> {
  let chars = 0;
  let tail = '';
  let done = false;
  t.onOutput((s) => {
    chars += s.length;
    tail = (tail + s).slice(-64);
    if (tail.includes(END_MARK)) done = true;
  });
  const t0 = performance.now();
  t.write(`cat ${file}; ${END_CMD}\r`);
  await waitUntil(() => done, 'the end of the cat', 600_000);
  return { seconds: (performance.now() - t0) / 1000, chars };
}

/** A text file of printable lines, as logs are. */
function makeFile(dir: string): string {
  const file = path.join(dir, 'big.txt');
  const fd = fs.openSync(file, 'w');
  const line = 76;
  const chunkLines = 8192;
  for (let written = 0; written < CAT_MB * 1024 * 1024; written += chunkLines * (line + 1)) {
    const b64 = randomBytes((chunkLines * line * 3) / 4).toString('base64');
    const lines: string[] = [];
    for (let i = 0; i < chunkLines; i++) lines.push(b64.slice(i * line, (i + 1) * line));
    fs.writeSync(fd, `${lines.join('\n')}\n`);
  }
  fs.closeSync(fd);
  return file;
}

interface Setup {
  server: ServerProcess;
  sshd: SshdWithUsers;
  /** A fresh one-time connection token of the admin for the sshd's account. */
  token(): Promise<string>;
}

async function setUp(sshd: SshdWithUsers, server: ServerProcess): Promise<Setup> {
  const headers = await signIn(server.base, PASSWORD);
  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${server.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as { id: string };
    if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const me = (await (await fetch(`${server.base}/api/v1/users/profile/`, { headers })).json()) as { id: string };
  const { host, password: account } = await sshHost(post, sshd, { host: { name: 'bench-sshd' } });
  await post('/api/v1/perms/asset-permissions/', {
    name: 'bench',
    users: [me.id],
    assets: [host.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
  const token = async () =>
    (
      await post('/api/v1/authentication/connection-token/', {
        asset: host.id,
        account: account.name,
        protocol: 'ssh',
        connect_method: 'web_cli',
      })
    ).id;
  return { server, sshd, token };
}

/** (a) The same cat through both paths, in turns (BENCH_GW_RUNS each; medians). */
async function throughput(s: Setup, dir: string): Promise<void> {
  const file = makeFile(dir);
  const size = fs.statSync(file).size;
  const web = await ready(async () => openWebTerminal(s.server.base, await s.token()));
  const direct = await ready(() => openDirectTerminal(s.sshd));
  const runs = { web: [] as number[], direct: [] as number[], cpu: [] as number[], chars: [0, 0] };
  const client = { web: [] as number[], direct: [] as number[] };
  const benchCpu = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
  for (let i = 0; i < RUNS; i++) {
    const cpu0 = s.server.cpuSeconds();
    let c0 = process.cpuUsage();
    const w = await catThrough(web, file);
    client.web.push(benchCpu(process.cpuUsage(c0)));
    runs.cpu.push(s.server.cpuSeconds() - cpu0);
    c0 = process.cpuUsage();
    const d = await catThrough(direct, file);
    client.direct.push(benchCpu(process.cpuUsage(c0)));
    runs.web.push(w.seconds);
    runs.direct.push(d.seconds);
    runs.chars = [w.chars, d.chars];
  }
  await web.close();
  await direct.close();
  const mb = size / 1024 / 1024;
  const [w, d, cpu] = [percentile(runs.web, 50), percentile(runs.direct, 50), percentile(runs.cpu, 50)];
  const r = d / w;
  console.log(`\n## gateway (a): cat of a ${mb.toFixed(0)} MB text file, ${RUNS} runs in turns (medians)`);
  const med = (xs: number[]) => percentile(xs, 50).toFixed(2);
  console.log('| path | time | throughput | characters received | client CPU | server CPU |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| ssh2 direct to sshd | ${d.toFixed(2)} s | ${(mb / d).toFixed(1)} MB/s | ${runs.chars[1]} | ${med(client.direct)} s | - |`,
  );
  console.log(
    `| web terminal (WebSocket -> gateway -> sshd) | ${w.toFixed(2)} s | ${(mb / w).toFixed(1)} MB/s | ${runs.chars[0]} | ${med(client.web)} s | ${cpu.toFixed(2)} s |`,
  );
  console.log(
    `gateway/direct throughput: ${r.toFixed(2)}x (goal >= 0.8x: ${r >= 0.8 ? 'met' : 'NOT met'}); each run, web ${runs.web.map((x) => x.toFixed(2)).join(' ')} s, direct ${runs.direct.map((x) => x.toFixed(2)).join(' ')} s (client: this process, a page's socket or ssh2)`,
  );
}

/**
 * One session's typist: every second (from a random offset) types `echo k<n>` key by key, each key
 * sent when the previous one's echo came back (its latency recorded), then Enter, and waits for
 * the prompt.
 */
async function typist(t: BenchTerminal, until: number, latencies: number[]): Promise<void> {
  let seen = '';
  let waiter: (() => void) | undefined;
  t.onOutput((s) => {
    seen += s;
    waiter?.();
  });
  const waitFor = (test: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (test()) return resolve();
      const timer = setTimeout(() => reject(new Error(`no echo: ${JSON.stringify(seen.slice(-80))}`)), 60_000);
      waiter = () => {
        if (!test()) return;
        clearTimeout(timer);
        waiter = undefined;
        resolve();
      };
    });
  await new Promise((r) => setTimeout(r, Math.random() * 1000));
  for (let n = 0; Date.now() < until; n++) {
    const started = Date.now();
    for (const key of `echo k${n}`) {
      seen = '';
      const t0 = performance.now();
      t.write(key);
      await waitFor(() => seen.includes(key));
      latencies.push(performance.now() - t0);
    }
    seen = '';
    t.write('\r');
    await waitFor(() => seen.includes(PROMPT));
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
  }
}

/** Opens `SESSIONS` terminals, 10 at a time, each at its first prompt. */
const openAll = (open: () => Promise<BenchTerminal>) =>
  inBatches(
    Array.from({ length: SESSIONS }, (_, i) => i),
    10,
    () => ready(open),
  );

/** Every terminal types for `seconds`; answers the CPU seconds this process spent meanwhile. */
async function typingPhase(terms: BenchTerminal[], seconds: number, latencies: number[]): Promise<number> {
  const c0 = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  await Promise.all(terms.map((t) => typist(t, until, latencies)));
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

/**
 * (b) Both sets of sessions open at once, typing in turns (direct, then gateway, PHASES times, each
 * SECONDS / PHASES long): a load on the machine that comes and goes weighs on both alike.
 */
async function concurrency(s: Setup): Promise<void> {
  const rssIdle = s.server.rssMb();
  const direct = await openAll(() => openDirectTerminal(s.sshd));
  const web = await openAll(async () => openWebTerminal(s.server.base, await s.token()));
  const rssOpen = s.server.rssMb();
  let peak = rssOpen;
  const sampler = setInterval(() => (peak = Math.max(peak, s.server.rssMb())), 500);
  const lat = { direct: [] as number[], web: [] as number[] };
  let serverCpu = 0;
  let directClientCpu = 0;
  let webClientCpu = 0;
  const turns: string[] = [];
  for (let i = 0; i < PHASES; i++) {
    const [d0, w0] = [lat.direct.length, lat.web.length];
    directClientCpu += await typingPhase(direct, SECONDS / PHASES, lat.direct);
    const c0 = s.server.cpuSeconds();
    webClientCpu += await typingPhase(web, SECONDS / PHASES, lat.web);
    serverCpu += s.server.cpuSeconds() - c0;
    const p50 = (xs: number[]) => percentile(xs, 50).toFixed(1);
    turns.push(`${p50(lat.direct.slice(d0))}/${p50(lat.web.slice(w0))}`);
  }
  clearInterval(sampler);
  await inBatches([...direct, ...web], 20, (t) => t.close());
  const p = (xs: number[], q: number) => percentile(xs, q);
  const ratio = (q: number) => `${(p(lat.web, q) / Math.max(p(lat.direct, q), 0.001)).toFixed(1)}x`;
  console.log(
    `\n## gateway (b): ${SESSIONS} sessions per path, each typing \`echo k<n>\` key by key every second, ${SECONDS} s per path in ${PHASES} turns`,
  );
  console.log('| path | keystrokes | echo p50 | echo p99 | p50 ratio | p99 ratio | client CPU |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| ssh2 direct to sshd | ${lat.direct.length} | ${p(lat.direct, 50).toFixed(1)} ms | ${p(lat.direct, 99).toFixed(1)} ms | 1.0x | 1.0x | ${directClientCpu.toFixed(1)} s |`,
  );
  console.log(
    `| web terminal through the gateway (recorded) | ${lat.web.length} | ${p(lat.web, 50).toFixed(1)} ms | ${p(lat.web, 99).toFixed(1)} ms | ${ratio(50)} | ${ratio(99)} | ${webClientCpu.toFixed(1)} s |`,
  );
  console.log(
    `server while its ${SESSIONS} sessions typed: CPU ${serverCpu.toFixed(1)} s in ${SECONDS} s (${((100 * serverCpu) / SECONDS).toFixed(0)}% of a core); RSS ${rssIdle.toFixed(0)} MiB idle, ${rssOpen.toFixed(0)} MiB with the sessions open (${((rssOpen - rssIdle) / SESSIONS).toFixed(2)} MiB each), peak ${peak.toFixed(0)} MiB (client CPU: this process's ssh2 clients or page sockets); p50 direct/gateway per turn: ${turns.join(', ')} ms`,
  );
}

/** SQLite only (the gateway's database work is a few rows per session and command). */
export async function runGatewayBench(databaseUrl?: string): Promise<void> {
  if (databaseUrl) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-gwbench-'));
  const sshd = await startShellSshd({
    users: [{ username: 'benchuser', password: 'Bench-ssh-1' }],
    config: [`MaxStartups ${SESSIONS + 50}`, `MaxSessions ${SESSIONS + 50}`],
  });
  const prof = process.env.BENCH_GW_PROF;
  const server = await startServerProcess(
    { DATA_DIR: path.join(dir, 'data'), GATEHOUSE_ADMIN_PASSWORD: PASSWORD },
    prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [],
  );
  try {
    const s = await setUp(sshd, server);
    const only = process.env.BENCH_GW_PART;
    if (!only || only === 'a') await throughput(s, dir);
    if (!only || only === 'b') await concurrency(s);
  } finally {
    await server.stop();
    sshd.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
