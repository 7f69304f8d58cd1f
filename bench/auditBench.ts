import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import { chromium } from 'playwright-core';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { buildApp, openDeps } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { DB } from '../apps/server/src/platform/db/schema.ts';
import { compareLine, ms, percentile, ratio, timeInTurns } from './stats.ts';
import { fetchFresh, signIn } from './client.ts';
import { buildConsole, removeBuild } from './pageBench.ts';

/**
 * Issue 18's benchmark: BENCH_AUDIT_SESSIONS sessions (100k) and BENCH_AUDIT_COMMANDS commands
 * (1M), seeded by SQL. The commands list's search through the API (a rare term, a common one, one
 * that matches nothing) next to the raw indexed SQL of the same page and its full count (the API
 * counts at most COMMAND_COUNT_CAP and, on SQLite, looks in the newest rows first: for a common
 * term it answers under the raw SQL), and next to the unindexed `LIKE '%term%'` scan it replaced; then, in Chromium, the time to the replay's first
 * frame of a synthetic one-hour recording, next to the time to download that file whole.
 */
const SESSIONS = Number(process.env.BENCH_AUDIT_SESSIONS ?? 100_000);
const COMMANDS = Number(process.env.BENCH_AUDIT_COMMANDS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PASSWORD = 'Bench-pass1';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Eight kinds of command lines; the number makes most of them distinct. */
const INPUT_SQL = (i: string, dialect: string) => {
  const cat = (...parts: string[]) => parts.join(' || ');
  const n = dialect === 'postgres' ? `(${i} % 997)::text` : `(${i} % 997)`;
  return `CASE ${i} % 8
    WHEN 0 THEN ${cat("'ls -la /var/log/app'", n)}
    WHEN 1 THEN ${cat("'systemctl restart worker'", n)}
    WHEN 2 THEN ${cat("'cat /etc/nginx/conf.d/site'", n, "'.conf'")}
    WHEN 3 THEN ${cat("'grep -r ERROR /srv/app/logs/'", n)}
    WHEN 4 THEN ${cat("'docker ps --filter name=svc'", n)}
    WHEN 5 THEN ${cat("'tail -n 100 /var/log/syslog.'", n)}
    WHEN 6 THEN ${cat("'kubectl get pods -n team'", n)}
    ELSE ${cat("'psql -c ''select count(*) from t'", n, "''''")} END`;
};

async function seed(db: Kysely<DB>, dialect: string): Promise<void> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  if (dialect === 'postgres') {
    await sql
      .raw(
        `INSERT INTO terminal_session (id, "user", user_id, asset, asset_id, account, account_id, protocol, type, login_from,
          remote_addr, is_success, is_finished, has_replay, has_command, is_locked, command_amount, terminal_id, replay_path,
          date_start, date_end, comment, org_id)
         SELECT 's' || i, 'user' || (i % 500), 'u' || (i % 500), 'host' || (i % 2000), 'a' || (i % 2000), 'root', 'acc',
          'ssh', 'normal', 'WT', '10.0.0.1', true, true, false, true, false, 10, '', '',
          to_char(to_timestamp(${start / 1000} + i * 60) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), NULL, '', '${DEFAULT_ORG_ID}'
         FROM generate_series(1, ${SESSIONS}) AS i`,
      )
      .execute(db);
    await sql
      .raw(
        `INSERT INTO terminal_command (id, session_id, "user", asset, account, input, output, risk_level, timestamp_ms, remote_addr, cmd_filter_acl_id, org_id)
         SELECT 'c' || i, 's' || (i % ${SESSIONS} + 1), 'user' || (i % 500), 'host' || (i % 2000), 'root',
          ${INPUT_SQL('i', dialect)}, '', CASE WHEN i % 50 = 0 THEN 5 ELSE 0 END, ${start} + i * 6000::bigint, '10.0.0.1', NULL, '${DEFAULT_ORG_ID}'
         FROM generate_series(1, ${COMMANDS}) AS i`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${SESSIONS})
         INSERT INTO terminal_session (id, "user", user_id, asset, asset_id, account, account_id, protocol, type, login_from,
          remote_addr, is_success, is_finished, has_replay, has_command, is_locked, command_amount, terminal_id, replay_path,
          date_start, date_end, comment, org_id)
         SELECT 's' || i, 'user' || (i % 500), 'u' || (i % 500), 'host' || (i % 2000), 'a' || (i % 2000), 'root', 'acc',
          'ssh', 'normal', 'WT', '10.0.0.1', 1, 1, 0, 1, 0, 10, '', '',
          strftime('%Y-%m-%dT%H:%M:%fZ', ${start / 1000} + i * 60, 'unixepoch'), NULL, '', '${DEFAULT_ORG_ID}' FROM c`,
      )
      .execute(db);
    await sql
      .raw(
        `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${COMMANDS})
         INSERT INTO terminal_command (id, session_id, "user", asset, account, input, output, risk_level, timestamp_ms, remote_addr, cmd_filter_acl_id, org_id)
         SELECT 'c' || i, 's' || (i % ${SESSIONS} + 1), 'user' || (i % 500), 'host' || (i % 2000), 'root',
          ${INPUT_SQL('i', dialect)}, '', CASE WHEN i % 50 = 0 THEN 5 ELSE 0 END, ${start} + i * 6000, '10.0.0.1', NULL, '${DEFAULT_ORG_ID}' FROM c`,
      )
      .execute(db);
  }
  await sql`ANALYZE`.execute(db);
}

/** The list's page of 15 and its full count for a search term, indexed or scanned. */
function rawSearch(db: Kysely<DB>, dialect: string, term: string, indexed: boolean) {
  const like = `%${term}%`;
  const cond =
    dialect === 'postgres'
      ? sql`input ILIKE ${like}`
      : indexed
        ? sql`rowid IN (SELECT rowid FROM terminal_command_fts WHERE terminal_command_fts MATCH ${`"${term}"`})`
        : sql`input LIKE ${like}`;
  return async () => {
    await sql`SELECT * FROM terminal_command WHERE org_id = ${DEFAULT_ORG_ID} AND ${cond} ORDER BY timestamp_ms DESC, id LIMIT 15`.execute(
      db,
    );
    await sql`SELECT count(*) AS n FROM terminal_command WHERE org_id = ${DEFAULT_ORG_ID} AND ${cond}`.execute(db);
  };
}

/** A one-hour asciicast (10 output lines a second), gzipped. */
function oneHourCast(): Buffer {
  const lines = [JSON.stringify({ version: 2, width: 120, height: 32, timestamp: 1767225600 })];
  for (let i = 0; i < 36_000; i++)
    lines.push(JSON.stringify([i / 10, 'o', `line ${i} ${'x'.repeat(60)} \x1b[32mok\x1b[0m\r\n`]));
  return gzipSync(lines.join('\n') + '\n');
}

async function replayFirstFrame(base: string, sessionId: string, label: string): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`replay in Chromium: skipped (${CHROMIUM} not found)`);
    return;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await page.goto(`${base}/core/auth/login/`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/ui/**');
    const frame = async () => {
      await page.goto(`${base}/luna/replay/${sessionId}`);
      await page.locator('body[data-first-frame]').waitFor({ state: 'attached', timeout: 60_000 });
      return Number(await page.locator('body').getAttribute('data-first-frame'));
    };
    const whole = async () => {
      const t = await page.evaluate(async (url) => {
        const t0 = performance.now();
        const res = await fetch(url);
        await new Response(res.body!.pipeThrough(new DecompressionStream('gzip'))).text();
        return performance.now() - t0;
      }, `/api/v1/terminal/sessions/${sessionId}/replay/file/`);
      return t;
    };
    await frame(); // the first load fills the browser cache with the player's files
    const frames: number[] = [];
    const downloads: number[] = [];
    for (let i = 0; i < 5; i++) {
      frames.push(await frame());
      downloads.push(await whole());
    }
    const f = percentile(frames, 50);
    const d = percentile(downloads, 50);
    console.log(
      `${label} replay of a one-hour recording: first frame p50 ${ms(f)} after navigation | downloading and gunzipping the whole file p50 ${ms(d)} | ratio ${ratio(f, d)}`,
    );
  } finally {
    await browser.close();
  }
}

export async function runAuditBench(databaseUrl?: string, pgSchema?: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const webDist = databaseUrl ? undefined : buildConsole();
  const config = loadConfig({
    DATA_DIR: dataDir,
    GATEHOUSE_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    GATEHOUSE_SSH_PORT: '0',
    ...(webDist ? { GATEHOUSE_WEB_DIST: webDist } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const deps = await openDeps(config, pgSchema ? { pgSchema } : {});
  const dialect = deps.database.dialect;
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const db: Kysely<DB> = deps.database.db;
  const t0 = performance.now();
  const app = await buildApp(deps);
  await seed(db, dialect);
  console.log(
    `\n## audit on ${label}: ${SESSIONS} sessions, ${COMMANDS} commands, seeded by SQL in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const headers = await signIn(base, PASSWORD);
    for (const [what, term] of [
      ['rare term', 'site17.conf'],
      ['common term', 'restart worker'],
      ['no match', 'no-such-command'],
    ] as const) {
      const url = `${base}/api/v1/terminal/commands/?search=${encodeURIComponent(term)}&limit=15`;
      const viaApi = async () => {
        const res = await fetchFresh(url, { headers });
        if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
        return res.json();
      };
      const count = ((await viaApi()) as { count: number }).count;
      const [api, raw] = await timeInTurns(RUNS, viaApi, rawSearch(db, dialect, term, true));
      compareLine(`${label} command search, ${what} "${term}" (${count} rows)`, api, raw);
      const [, scan] = await timeInTurns(3, async () => undefined, rawSearch(db, dialect, term, false));
      if (dialect === 'sqlite')
        console.log(
          `  unindexed LIKE scan of the same: p50 ${ms(percentile(scan, 50))} (${ratio(percentile(scan, 50), percentile(raw, 50))} the indexed SQL)`,
        );
    }
    if (webDist) {
      const id = 'bench-one-hour';
      const rel = 'replays/2026-01-01/bench-one-hour.cast.gz';
      fs.mkdirSync(path.join(dataDir, 'replays/2026-01-01'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, rel), oneHourCast());
      await db
        .updateTable('terminal_session')
        .set({ id, has_replay: true, replay_path: rel })
        .where('id', '=', 's1')
        .execute();
      await replayFirstFrame(base, id, label);
    }
  } finally {
    await app.close();
    removeBuild(webDist);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
