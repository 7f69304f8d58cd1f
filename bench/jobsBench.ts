import ssh2 from 'ssh2';
import WebSocket from 'ws';
import { SESSION_COOKIE } from '@gatehouse/contract';
import { listenOnLoopback } from '@gatehouse/server/test-support/siteMsgSocket.ts';
import { adminClient, createTestApp } from '@gatehouse/server/test-support/testApp.ts';
import { apiPost } from '@gatehouse/server/test-support/accounts.ts';
import { ACCOUNTS, linuxHost } from '@gatehouse/server/test-support/sshAsset.ts';
import { startShellSshd } from '@gatehouse/server/test-support/sshd.ts';

/**
 * Issue 29 (6): a quick job of `hostname` over BENCH_JOB_HOSTS (200) asset records, all on one real
 * sshd, through the job centre (API, engine, rules per asset, the gateway's SSH runner, the task
 * log), next to the same number of bare ssh2 execs with the same parallelism (BENCH_JOB_PARALLEL,
 * 20) in the same run. Prints both times, the ratio and the overhead per host.
 */
const N = Number(process.env.BENCH_JOB_HOSTS ?? 200);
const P = Number(process.env.BENCH_JOB_PARALLEL ?? 20);

function bareExec(port: number, username: string, password: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = new ssh2.Client();
    c.once('ready', () =>
      c.exec('hostname', (err, ch) => {
        if (err) return reject(err);
        ch.on('data', () => undefined);
        ch.on('close', () => {
          c.end();
          resolve();
        });
      }),
    );
    c.once('error', reject);
    c.connect({ host: '127.0.0.1', port, username, password, readyTimeout: 30_000 });
  });
}

/** The command of the latency scenario: a line every 50 ms, each carrying the host's clock in ms. */
const STAMPED = 'for i in $(seq 1 60); do echo "T $(date +%s%3N)"; sleep 0.05; done';
const lagsIn = (text: string, now: number) => [...text.matchAll(/T (\d{13})/g)].map((m) => now - Number(m[1]));

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** Lags of the stamped lines read from the task-log socket, as the console reads them. */
function socketLags(base: string, cookie: string, task: string): Promise<number[]> {
  const ws = new WebSocket(`${base}/ws/ops/tasks/log/`, { headers: { cookie } });
  const lags: number[] = [];
  return new Promise((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ task, type: 'celery' })));
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { message?: string; event?: string };
      lags.push(...lagsIn(m.message ?? '', Date.now()));
      if (m.event === 'end') ws.close();
    });
    ws.on('close', () => resolve(lags));
    ws.on('error', reject);
  });
}

/** Lags of the same lines read straight from an ssh2 exec channel (the baseline). */
function execLags(port: number, username: string, password: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const lags: number[] = [];
    const c = new ssh2.Client();
    c.once('ready', () =>
      c.exec(STAMPED, (err, ch) => {
        if (err) return reject(err);
        ch.on('data', (d: Buffer) => lags.push(...lagsIn(d.toString(), Date.now())));
        ch.on('close', () => {
          c.end();
          resolve(lags);
        });
      }),
    );
    c.once('error', reject);
    c.connect({ host: '127.0.0.1', port, username, password });
  });
}

export async function runJobsBench(): Promise<void> {
  const sshd = await startShellSshd({ config: ['MaxStartups 1000', 'MaxSessions 1000'] });
  // fresh: outside Vitest there is no run's template database to clone.
  const t = await createTestApp({ JOB_HOSTS: String(P) }, { fresh: true });
  try {
    const admin = await adminClient(t.app);
    const post = apiPost(admin);
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const host = await linuxHost(post, sshd.port, { name: `bench-job-${i}` });
      await post(ACCOUNTS, { asset: host.id, username: sshd.username, secret: sshd.password });
      ids.push(host.id);
    }
    const me = (await admin.get('/api/v1/users/profile/')).json() as { id: string };
    await post('/api/v1/perms/asset-permissions/', {
      name: 'jobs-bench',
      users: [me.id],
      assets: ids,
      accounts: ['@ALL'],
      actions: ['all'],
    });
    // Warm both paths once (host keys recorded, connections and code paths hot).
    await bareExec(sshd.port, sshd.username, sshd.password);
    const quick = async (assets: string[]) => {
      const res = await admin.post('/api/v1/ops/jobs/', {
        assets,
        args: 'hostname',
        module: 'shell',
        runas: sshd.username,
        instant: true,
        timeout: 60,
      });
      const task = (res.json() as { task_id: string }).task_id;
      for (;;) {
        const d = (await admin.get(`/api/v1/ops/job-execution/task-detail/${task}/`)).json() as Record<string, unknown>;
        if (d.is_finished) return d;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await quick(ids.slice(0, 1));
    const t0 = performance.now();
    const done = await quick(ids);
    const jobMs = performance.now() - t0;
    if (done.status !== 'success') throw new Error(`the bench job ended ${String(done.status)}`);
    const t1 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: P }, async () => {
        while (next < N) {
          next += 1;
          await bareExec(sshd.port, sshd.username, sshd.password);
        }
      }),
    );
    const directMs = performance.now() - t1;
    console.log(`\n## Quick job over ${N} assets (${P} in parallel)`);
    console.log(
      `job centre ${(jobMs / 1000).toFixed(2)} s | bare ssh2 execs ${(directMs / 1000).toFixed(2)} s | ratio ${(jobMs / directMs).toFixed(2)}x | overhead ${((jobMs - directMs) / N).toFixed(1)} ms per host`,
    );

    // Live output: how long after the host prints a line it reaches a reader of the task-log socket.
    const base = await listenOnLoopback(t.app);
    const cookie = `${SESSION_COOKIE}=${admin.jar.values.get(SESSION_COOKIE)}`;
    const live = await admin.post('/api/v1/ops/jobs/', {
      assets: [ids[0]],
      args: STAMPED,
      module: 'shell',
      runas: sshd.username,
      instant: true,
      timeout: 60,
    });
    const viaSocket = await socketLags(base, cookie, (live.json() as { task_id: string }).task_id);
    const direct = await execLags(sshd.port, sshd.username, sshd.password);
    console.log(`\n## Live job output (${viaSocket.length} lines, one every 50 ms)`);
    console.log(
      `task-log socket p50 ${pct(viaSocket, 50)} ms p95 ${pct(viaSocket, 95)} ms (goal: p95 <= 200 ms) | bare ssh2 exec p50 ${pct(direct, 50)} ms p95 ${pct(direct, 95)} ms`,
    );
    if (!(pct(viaSocket, 95) <= 200)) process.exitCode = 1;
  } finally {
    await t.close();
    sshd.stop();
  }
}
