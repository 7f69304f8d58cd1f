import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID } from '@gatehouse/contract';
import { openDeps } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { DB } from '../apps/server/src/platform/db/schema.ts';
import { startServerProcess, type ServerProcess } from './gatewayClients.ts';
import { drain, signIn } from './client.ts';
import { ms, ratio } from './stats.ts';

/**
 * Issue 37's export benchmark: BENCH_EXPORT_ROWS (1M) users and as many commands, seeded by SQL,
 * exported as CSV by a server running in its own process (startServerProcess), next to the raw SQL of
 * the same query read to its end by a cursor in this process, in turns. The server never shares an
 * event loop with the baseline, so no figure depends on a keep-alive timeout. Goal: the export in at
 * most 2x the raw query, the server's peak resident memory less than +100 MiB above its level
 * before the export; missed, the run exits 1. BENCH_CPU_PROF=<dir> writes the server's CPU profile there.
 */
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 2);
const MAX_RATIO = 2;
const MAX_PEAK_MIB = 100;
const PASSWORD = 'Bench-pass1';

/** A recursive counter on SQLite, generate_series on PostgreSQL: rows 1..n named `i`. */
function counter(dialect: string, n: number): { with: string; from: string } {
  return dialect === 'postgres'
    ? { with: '', from: `generate_series(1, ${n}) AS g(i)` }
    : { with: `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n})`, from: 'c' };
}

async function seed(db: Kysely<DB>, dialect: string, n: number): Promise<void> {
  const c = counter(dialect, n);
  const pg = dialect === 'postgres';
  const uuid = (prefix: string) =>
    pg ? `'${prefix}' || lpad(i::text, 12, '0')` : `'${prefix}' || substr('000000000000' || i, -12)`;
  const [t, f] = pg ? ['true', 'false'] : ['1', '0'];
  const now = new Date().toISOString();
  // Names repeat (every 1,000th name is shared by two users), so the order's ties are crossed.
  await sql
    .raw(
      `${c.with} INSERT INTO users_user (id, username, name, email, password, is_active, is_first_login, need_update_password,
        is_service_account, source, mfa_level, phone, wechat, comment, date_expired, date_joined, last_login,
        date_password_last_updated, created_by, updated_by, date_updated)
       SELECT ${uuid('00000000-0000-4000-8000-')}, 'user_' || i, 'User ' || (i - ${pg ? '(i % 1000 = 1)::int' : '(i % 1000 = 1)'}),
        'user_' || i || '@example.com', '', CASE WHEN i % 10 = 0 THEN ${f} ELSE ${t} END, ${f}, ${f}, ${f}, 'local', 0,
        '', '', 'bench row, "quoted" ' || i, '2090-01-01T00:00:00.000Z', '${now}', NULL, '${now}', 'bench', 'bench', '${now}'
       FROM ${c.from}`,
    )
    .execute(db);
  await sql
    .raw(
      `${c.with} INSERT INTO rbac_rolebinding (id, scope, user_id, role_id, org_id, created_by, date_created)
       SELECT ${uuid('00000000-0000-4000-9000-')}, 'org', ${uuid('00000000-0000-4000-8000-')},
        '${BUILTIN_ROLE_IDS.OrgUser}', '${DEFAULT_ORG_ID}', 'bench', '${now}' FROM ${c.from}`,
    )
    .execute(db);
  const start = Date.parse('2026-01-01T00:00:00Z');
  // Ten commands share each millisecond: the order's ties (then id) cross every batch boundary.
  await sql
    .raw(
      `${c.with} INSERT INTO terminal_command (id, session_id, "user", asset, account, input, output, risk_level, timestamp_ms,
        remote_addr, cmd_filter_acl_id, org_id)
       SELECT 'c' || i, 's' || (i % 1000), 'user' || (i % 500), 'host' || (i % 2000), 'root',
        'grep -r ERROR /srv/app/logs/' || (i % 997), 'ok', CASE WHEN i % 50 = 0 THEN 5 ELSE 0 END,
        ${start} + (i / 10) * 1000, '10.0.0.1', NULL, '${DEFAULT_ORG_ID}' FROM ${c.from}`,
    )
    .execute(db);
  await sql`ANALYZE`.execute(db);
}

/** The SQL the export runs, as the list's query builds it (resource/query.ts). */
const RAW = {
  users: `SELECT users_user.* FROM users_user WHERE users_user.is_service_account = $false AND users_user.id IN
    (SELECT user_id FROM rbac_rolebinding WHERE scope = 'org' AND org_id = '${DEFAULT_ORG_ID}') ORDER BY users_user.name, users_user.id`,
  commands: `SELECT terminal_command.* FROM terminal_command WHERE terminal_command.org_id = '${DEFAULT_ORG_ID}'
    ORDER BY terminal_command.timestamp_ms DESC, terminal_command.id`,
};

/** Reads every row of `text` in a worker thread (rawReader.mjs) and drops it; its rows and time. */
function rawReader(dialect: string, sqliteFile: string, pgUrl: string | undefined) {
  return (query: string) =>
    new Promise<{ rows: number; ms: number }>((resolve, reject) => {
      const text = query.replace('$false', dialect === 'sqlite' ? '0' : 'false');
      const worker = new Worker(new URL('./rawReader.mjs', import.meta.url), {
        workerData: { dialect, sqliteFile, pgUrl, text },
      });
      worker.once('message', (m: { rows: number; ms: number; error?: string }) => {
        void worker.terminate();
        if (m.error) reject(new Error(m.error));
        else resolve(m);
      });
      worker.once('error', reject);
    });
}

function statusKb(pid: number, key: string): number {
  const m = new RegExp(`${key}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0);
}

/** One export through the API: its time, bytes and the server's peak RSS growth (VmHWM reset first). */
async function exportOnce(server: ServerProcess, url: string, headers: Record<string, string>) {
  fs.writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  const before = statusKb(server.pid, 'VmRSS');
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  const bytes = await drain(res);
  const took = performance.now() - t0;
  return { ms: took, bytes, peakMb: (statusKb(server.pid, 'VmHWM') - before) / 1024 };
}

export async function runExportBench(databaseUrl?: string, pgSchema?: string): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const sqliteFile = path.join(dataDir, 'gatehouse.sqlite');
  const env = {
    DATA_DIR: dataDir,
    GATEHOUSE_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    GATEHOUSE_SSH_PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const deps = await openDeps(loadConfig(env), pgSchema ? { pgSchema } : {});
  const dialect = deps.database.dialect;
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const t0 = performance.now();
  try {
    await seed(deps.database.db, dialect, ROWS);
  } finally {
    await deps.close();
  }
  console.log(
    `\n## export on ${label}: ${ROWS} users and ${ROWS} commands seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // The server reads the bench's schema through the connection's search_path.
  const serverUrl =
    databaseUrl && pgSchema
      ? `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${pgSchema}`)}`
      : undefined;
  const server = await startServerProcess(
    { ...env, ...(serverUrl ? { DATABASE_URL: serverUrl } : {}) },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  );
  const raw = rawReader(dialect, sqliteFile, serverUrl);
  let ok = true;
  try {
    const headers = await signIn(server.base, PASSWORD);
    for (const [what, url, text] of [
      ['users', '/api/v1/users/users/?format=csv', RAW.users],
      ['commands', '/api/v1/terminal/commands/?format=csv', RAW.commands],
    ] as const) {
      const api: Awaited<ReturnType<typeof exportOnce>>[] = [];
      const base: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await raw(text);
        rows = r.rows;
        base.push(r.ms);
        api.push(await exportOnce(server, new URL(url, server.base).href, headers));
      }
      // The best of the runs on each side: a neighbour's burst on a shared machine slows one run, not the code.
      const best = api.reduce((a, b) => (b.ms < a.ms ? b : a));
      const rawBest = Math.min(...base);
      const peak = Math.max(...api.map((a) => a.peakMb));
      const pass = best.ms <= MAX_RATIO * rawBest && peak < MAX_PEAK_MIB;
      if (!pass) ok = false;
      console.log(
        `CSV export of ${rows} ${what}: ${ms(best.ms)}, ${(best.bytes / 1024 / 1024).toFixed(1)} MiB, server peak RSS +${peak.toFixed(1)} MiB | ` +
          `raw SQL read by a cursor (worker thread): ${ms(rawBest)} | ratio ${ratio(best.ms, rawBest)} (goal <= ${MAX_RATIO}x, < +${MAX_PEAK_MIB} MiB) ${pass ? 'ok' : 'MISSED'}`,
      );
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return ok;
}
