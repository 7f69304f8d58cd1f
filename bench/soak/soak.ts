import { gunzipSync } from 'node:zlib';
import { sshHost } from '../../apps/server/test-support/sshAsset.ts';
import { signIn } from '../client.ts';
import { percentile } from '../stats.ts';
import { startCluster, type Cluster, type Instance } from './cluster.ts';
import {
  closedLoop,
  commandOf,
  created,
  openLoop,
  SIGN_IN_PASSWORD,
  sshTerminal,
  webTerminal,
  type Fixture,
  type Sample,
  type SoakTerminal,
} from './load.ts';

/**
 * Issue 33's soak (docs/deploy.md, "Soak"): two instances behind HAProxy on PostgreSQL, Redis and
 * an S3 store; throughput of one instance against two on the same reads; then the HTTP mix at
 * `rate` a second with web and native SSH terminals typing a command a second, `kill -9` of one
 * instance at `killAtMs`; then the checks, printed. `npm run soak` runs the full one
 * (bench/soak/run.ts); the CI test (apps/server/src/scaleout.soak.redis.test.ts) a few seconds of it.
 */
export interface SoakOptions {
  seconds: number;
  killAtMs: number;
  rate: number;
  webSessions: number;
  sshSessions: number;
  throughputMs: number;
  log?: (line: string) => void;
}

export interface SoakReport {
  lines: string[];
  /** Every check that failed, in words; empty when all passed. */
  failures: string[];
  /** Checks measured and printed but not held (goals the machine may not reach). */
  unheld: string[];
  counts: Record<string, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fixture(c: Cluster): Promise<Fixture> {
  SIGN_IN_PASSWORD.value = c.password;
  const headers = await signIn(c.lb, c.password);
  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${c.lb}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown> & { id: string };
    if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const { host, password: account } = await sshHost(post, c.sshd, { host: { name: 'soak-sshd' } });
  const me = (await (await fetch(`${c.lb}/api/v1/users/profile/`, { headers })).json()) as { id: string };
  await post('/api/v1/perms/asset-permissions/', {
    name: 'soak',
    users: [me.id],
    assets: [host.id],
    accounts: ['@ALL'],
    actions: ['connect'],
  });
  await post('/api/v1/terminal/replay-storages/', {
    name: 'soak-s3',
    type: 's3',
    is_default: true,
    meta: { BUCKET: c.s3.bucket, ACCESS_KEY: c.s3.accessKey, SECRET_KEY: c.s3.secretKey, ENDPOINT: c.s3.endpoint },
  });
  const userIds: string[] = [];
  for (let i = 0; i < 10; i++) {
    const name = `soak-${i}`;
    userIds.push(
      (
        await post('/api/v1/users/users/', {
          name,
          username: name,
          email: `${name}@example.com`,
          password_strategy: 'email',
        })
      ).id,
    );
  }
  return { headers, userIds, hostId: host.id, accountName: String(account.name), hostName: String(host.name) };
}

async function token(c: Cluster, f: Fixture): Promise<string> {
  const res = await fetch(`${c.lb}/api/v1/authentication/connection-token/`, {
    method: 'POST',
    headers: f.headers,
    body: JSON.stringify({ asset: f.hostId, account: f.accountName, protocol: 'ssh', connect_method: 'web_cli' }),
  });
  return ((await res.json()) as { id: string }).id;
}

const p = (xs: number[], q: number) => (xs.length ? percentile(xs, q).toFixed(1) : '-');

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  const lines: string[] = [];
  const say = (l: string) => {
    lines.push(l);
    o.log?.(l);
  };
  const failures: string[] = [];
  const unheld: string[] = [];
  const counts: Record<string, number> = {};
  const c = await startCluster({ sessions: o.webSessions + o.sshSessions });
  const terminals: SoakTerminal[] = [];
  try {
    const f = await fixture(c);
    const [victim, survivor] = c.instances as [Instance, Instance];

    // Throughput: the same closed-loop reads against one instance directly and through the balancer.
    if (o.throughputMs > 0) {
      const one = await closedLoop(victim.base, f, 16, o.throughputMs);
      const two = await closedLoop(c.lb, f, 16, o.throughputMs);
      say(
        `throughput (16 clients, reads): one instance ${one.toFixed(0)} req/s | two behind HAProxy ${two.toFixed(0)} req/s | ${(two / one).toFixed(2)}x (goal 1.7x)`,
      );
      if (two / one < 1.7) unheld.push(`two instances ${(two / one).toFixed(2)}x one (goal 1.7x)`);
    }

    // A terminal that fails to open is tried once more, and said.
    let retried = 0;
    const open = async (make: () => Promise<SoakTerminal>) => {
      try {
        return await make();
      } catch (e) {
        retried++;
        say(`  a terminal failed to open (${(e as Error).message.slice(0, 160)}); trying again`);
        return make();
      }
    };
    for (let i = 0; i < o.webSessions; i++)
      terminals.push(await open(async () => webTerminal(c.lb, await token(c, f), `w${i}`)));
    for (let i = 0; i < o.sshSessions; i++)
      terminals.push(
        await open(() => sshTerminal(c.lbSshPort, `admin@${f.accountName}@${f.hostName}`, c.password, `s${i}`)),
      );
    counts.terminalRetries = retried;
    say(`terminals open: ${o.webSessions} web, ${o.sshSessions} native SSH (${retried} opened at the second try)`);

    const rss: { t: number; mb: number }[] = [];
    const load = openLoop(c.lb, f, o.rate);
    const t0 = performance.now();
    let tick = 0;
    let killedAt = 0;
    while (performance.now() - t0 < o.seconds * 1000) {
      for (const t of terminals) if (!t.closedAt) t.type(`soak-${t.label}-${tick}`);
      tick++;
      rss.push({ t: performance.now() - t0, mb: survivor.rssMb() });
      if (!killedAt && performance.now() - t0 >= o.killAtMs) {
        victim.kill();
        killedAt = performance.now();
        say(`kill -9 of instance ${victim.name} (pid ${victim.pid}) at ${((killedAt - t0) / 1000).toFixed(1)} s`);
      }
      await sleep(1000);
    }
    const samples = await load.stop();
    // The last commands' output.
    await sleep(1500);
    checkHttp(samples, killedAt, victim.name, c.servedBy, say, failures, counts);
    await checkCommands(c, terminals, killedAt, say, failures, counts);
    // The terminals the kill closed were on the killed instance.
    const cut = terminals.filter((t) => t.closedAt);
    for (const t of terminals) await t.close().catch(() => undefined);
    await checkSessions(c, victim, cut, killedAt, say, failures, unheld, counts);
    await checkWrites(c, f, say, failures, counts);
    checkMemory(rss, say, unheld);
    return { lines, failures, unheld, counts };
  } finally {
    for (const t of terminals) await t.close().catch(() => undefined);
    await c.stop();
  }
}

function checkHttp(
  samples: Sample[],
  killedAt: number,
  victim: string,
  servedBy: Cluster['servedBy'],
  say: (l: string) => void,
  failures: string[],
  counts: Record<string, number>,
) {
  const failed = samples.filter((s) => !s.ok);
  // In flight on the killed instance: HAProxy's log names that instance for it and it ended after
  // the kill. A dying process's kernel still completes connections to it for a moment, so "sent
  // before the kill" by the load generator's clock is not the measure.
  const logged = failed.filter((s) => servedBy.get(String(s.n))?.server === victim && s.end >= killedAt);
  // HAProxy writes no log line for some requests whose client connection it closes when the
  // instance dies under them (seen in every run; undici reports UND_ERR_SOCKET). Those sent by
  // the kill (0.5 s of a busy load generator's lag allowed) and closed within 3 s of it are
  // counted in flight too, separately, and said.
  const unlogged = failed.filter(
    (s) =>
      !servedBy.has(String(s.n)) &&
      s.error === 'UND_ERR_SOCKET' &&
      s.sent <= killedAt + 500 &&
      s.end >= killedAt &&
      s.end <= killedAt + 3000,
  );
  const inFlight = [...logged, ...unlogged];
  const other = failed.filter((s) => !inFlight.includes(s));
  const ms = (xs: Sample[]) => xs.filter((s) => s.ok).map((s) => s.end - s.start);
  const before = ms(samples.filter((s) => s.end < killedAt));
  const after = ms(samples.filter((s) => s.sent > killedAt));
  counts.requests = samples.length;
  counts.otherErrors = other.length;
  counts.inFlightErrors = inFlight.length;
  say(
    `HTTP: ${samples.length} requests, ${inFlight.length} failed in flight at the kill, ${other.length} other errors`,
  );
  say(
    `  latency before the kill p50 ${p(before, 50)} ms p99 ${p(before, 99)} ms | after p50 ${p(after, 50)} ms p99 ${p(after, 99)} ms`,
  );
  const byKind = new Map<string, number>();
  for (const s of other) {
    const lb = servedBy.get(String(s.n));
    const k = `${s.kind} ${s.status || s.error} via ${lb ? `${lb.server} ${lb.state}` : '?'} ${((s.sent - killedAt) / 1000).toFixed(1)}s..${((s.end - killedAt) / 1000).toFixed(1)}s`;
    byKind.set(k, (byKind.get(k) ?? 0) + 1);
  }
  if (other.length)
    failures.push(`${other.length} HTTP errors not in flight at the kill: ${JSON.stringify([...byKind])}`);
}

async function checkCommands(
  c: Cluster,
  terminals: SoakTerminal[],
  killedAt: number,
  say: (l: string) => void,
  failures: string[],
  counts: Record<string, number>,
) {
  const rows = (
    await c.sql.query<{ input: string }>(`SELECT input FROM terminal_command WHERE input LIKE 'echo soak-%'`)
  ).rows;
  const times = new Map<string, number>();
  for (const r of rows) times.set(r.input, (times.get(r.input) ?? 0) + 1);
  let acked = 0;
  let lost = 0;
  let twice = 0;
  for (const t of terminals)
    for (const typed of t.typed) {
      const n = times.get(commandOf(typed.marker)) ?? 0;
      if (n > 1) twice++;
      // Acknowledged (its output seen) before the kill, or on a terminal that lived on.
      if (typed.acked && (typed.acked < killedAt || !t.closedAt)) {
        acked++;
        if (n !== 1) lost++;
      }
    }
  counts.commandsAcked = acked;
  counts.commandsLost = lost;
  counts.commandsTwice = twice;
  say(`commands: ${acked} typed and answered, ${lost} not recorded, ${twice} recorded twice`);
  if (lost) failures.push(`${lost} answered commands not recorded once`);
  if (twice) failures.push(`${twice} commands recorded twice`);
}

async function checkSessions(
  c: Cluster,
  victim: Instance,
  terminals: SoakTerminal[],
  killedAt: number,
  say: (l: string) => void,
  failures: string[],
  unheld: string[],
  counts: Record<string, number>,
) {
  // The survivor ends the killed instance's sessions 3 of its heartbeats (1 s here) after the kill.
  for (let i = 0; i < 300; i++) {
    const open = Number(
      (
        await c.sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM terminal_session s JOIN terminal_terminal t ON t.id = s.terminal_id
           WHERE t.pid = $1 AND NOT s.is_finished`,
          [victim.pid],
        )
      ).rows[0]!.n,
    );
    if (!open) break;
    await sleep(100);
  }
  const rows = (
    await c.sql.query<{ is_finished: boolean; has_replay: boolean; n: string }>(
      `SELECT s.is_finished, s.has_replay, count(*) AS n FROM terminal_session s JOIN terminal_terminal t ON t.id = s.terminal_id
       WHERE t.pid = $1 GROUP BY 1, 2`,
      [victim.pid],
    )
  ).rows;
  const n = (fin: boolean, rep: boolean) =>
    Number(rows.find((r) => r.is_finished === fin && r.has_replay === rep)?.n ?? 0);
  const total = rows.reduce((s, r) => s + Number(r.n), 0);
  const ended = n(true, true) + n(true, false);
  const replayable = n(true, true) + n(false, true);
  counts.victimSessions = total;
  counts.victimSessionsEnded = ended;
  counts.victimSessionsReplayable = replayable;
  say(`sessions on the killed instance: ${total}, marked ended ${ended}, replayable ${replayable}`);
  if (ended < total)
    failures.push(`${total - ended} sessions of the killed instance not marked ended 30 s after the kill`);
  if (replayable < total) failures.push(`${total - replayable} recordings of the killed instance not replayable`);
  // What the killed instance's terminals showed before the kill is in the replays, up to 1 s before.
  const replays = (
    await c.sql.query<{ replay_path: string }>(
      `SELECT s.replay_path FROM terminal_session s JOIN terminal_terminal t ON t.id = s.terminal_id
       WHERE t.pid = $1 AND s.has_replay`,
      [victim.pid],
    )
  ).rows;
  let text = '';
  for (const r of replays) {
    const object = c.s3.object(r.replay_path);
    if (object) text += gunzipSync(object).toString('utf8');
  }
  const shown = terminals.flatMap((t) =>
    t.typed.filter((x) => x.acked && x.acked < killedAt).map((x) => ({ ...x, label: t.label })),
  );
  const missing = shown.filter((x) => !text.includes(`${x.marker}-2`));
  const lateMs = missing.length ? Math.max(...missing.map((x) => killedAt - x.acked!)) : 0;
  counts.victimOutputsShown = shown.length;
  counts.victimOutputsNotReplayed = missing.length;
  say(
    `outputs shown before the kill on its terminals: ${shown.length}, not in the replays ${missing.length}${missing.length ? ` (the oldest ${(lateMs / 1000).toFixed(1)} s before the kill)` : ''}`,
  );
  if (lateMs > 5000)
    failures.push(`an output shown ${(lateMs / 1000).toFixed(1)} s before the kill is not in the replay`);
  else if (lateMs > 1000) unheld.push(`recording lost ${(lateMs / 1000).toFixed(1)} s before the kill (goal 1 s)`);
  // The survivor's sessions end (recording to the store) shortly after their terminals close.
  let live = 0;
  for (let i = 0; i < 300; i++) {
    live = Number(
      (
        await c.sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM terminal_session s JOIN terminal_terminal t ON t.id = s.terminal_id
           WHERE t.pid <> $1 AND (NOT s.is_finished OR NOT s.has_replay)`,
          [victim.pid],
        )
      ).rows[0]!.n,
    );
    if (!live) break;
    await sleep(100);
  }
  if (live > 0)
    failures.push(`${live} sessions of the survivor not ended with a recording 30 s after their terminals closed`);
}

async function checkWrites(
  c: Cluster,
  f: Fixture,
  say: (l: string) => void,
  failures: string[],
  counts: Record<string, number>,
) {
  const ids = [...created];
  const found = ids.length
    ? Number(
        (await c.sql.query<{ n: string }>(`SELECT count(*) AS n FROM users_user WHERE id = ANY($1)`, [ids])).rows[0]!.n,
      )
    : 0;
  counts.writes = ids.length;
  counts.lostWrites = ids.length - found;
  say(`writes: ${ids.length} answered 201, ${ids.length - found} lost`);
  if (found !== ids.length) failures.push(`${ids.length - found} answered writes lost`);
  void f;
}

function checkMemory(rss: { t: number; mb: number }[], say: (l: string) => void, unheld: string[]) {
  if (rss.length < 4) return;
  const q = Math.floor(rss.length / 4);
  const early = rss.slice(q, 2 * q).map((r) => r.mb);
  const late = rss.slice(-q).map((r) => r.mb);
  const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const growth = avg(late) - avg(early);
  say(
    `survivor memory: ${rss[0]!.mb.toFixed(0)} MiB at start, ${avg(early).toFixed(0)} MiB in the second quarter, ${avg(late).toFixed(0)} MiB in the last (${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MiB)`,
  );
  if (growth > 64) unheld.push(`survivor memory grew ${growth.toFixed(0)} MiB from the second quarter to the last`);
}
