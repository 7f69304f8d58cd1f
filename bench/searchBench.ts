import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID, ROOT_ORG_ID } from '@gatehouse/contract';
import { buildApp, openDeps } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { DB } from '../apps/server/src/platform/db/schema.ts';
import { compareLine, timeInTurns } from './stats.ts';
import { signIn } from './client.ts';

/**
 * Issue 37's benchmark: list search through the substring indexes of migration 1740
 * (resource/textSearch.ts). BENCH_SEARCH_USERS users (100k) and BENCH_SEARCH_LOGS login logs (1M),
 * seeded by SQL (through the index triggers). For each list, a rare term, one of a few thousand
 * matches (under SEARCH_COMMON_MATCHES at 100k users and 1M logs), a common one and a non-ASCII
 * one: the list page through the API (page of 15 and its count) next to the LIKE scan it replaced
 * (raw SQL of the same page and count; on PostgreSQL with bitmap scans off, so without the trigram
 * indexes), timed in turns in the same run. PostgreSQL's tables are vacuumed and analysed first.
 */
const USERS = Number(process.env.BENCH_SEARCH_USERS ?? 100_000);
const LOGS = Number(process.env.BENCH_SEARCH_LOGS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const PASSWORD = 'Bench-pass1';

/** `n` rows numbered from 1 for an INSERT ... SELECT, on either database. */
function numbers(dialect: string, n: number): { from: string; num: (e: string) => string } {
  return dialect === 'postgres'
    ? { from: `generate_series(1, ${n}) AS c(i)`, num: (e) => `(${e})::text` }
    : { from: `c`, num: (e) => `(${e})` };
}

async function seed(db: Kysely<DB>, dialect: string): Promise<void> {
  const now = new Date().toISOString();
  const t = dialect === 'postgres' ? 'true' : '1';
  const f = dialect === 'postgres' ? 'false' : '0';
  const rec = (n: number) =>
    dialect === 'postgres' ? '' : `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) `;
  let { from, num } = numbers(dialect, USERS);
  await sql
    .raw(
      `${rec(USERS)}INSERT INTO users_user (id, username, name, email, password, is_active, is_first_login, need_update_password,
        is_service_account, source, mfa_level, phone, wechat, comment, date_expired, date_joined, last_login,
        date_password_last_updated, created_by, updated_by, date_updated)
       SELECT 'u' || i, 'user_' || i, 'User ' || i, 'user_' || i || '@example.com', '', ${t}, ${f}, ${f}, ${f}, 'local', 0,
        '', '', 'bench row ' || ${num('i')}, '2090-01-01T00:00:00.000Z', '${now}', NULL, '${now}', 'bench', 'bench', '${now}'
       FROM ${from}`,
    )
    .execute(db);
  await sql
    .raw(
      `${rec(USERS)}INSERT INTO rbac_rolebinding (id, scope, user_id, role_id, org_id, created_by, date_created)
       SELECT 'b' || i, 'org', 'u' || i, '${BUILTIN_ROLE_IDS.OrgUser}', '${DEFAULT_ORG_ID}', 'bench', '${now}' FROM ${from}`,
    )
    .execute(db);
  ({ from, num } = numbers(dialect, LOGS));
  const start = Date.parse('2026-01-01T00:00:00Z') / 1000;
  const datetime =
    dialect === 'postgres'
      ? `to_char(to_timestamp(${start} + i * 10) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', ${start} + i * 10, 'unixepoch')`;
  await sql
    .raw(
      `${rec(LOGS)}INSERT INTO audits_userloginlog (id, username, type, ip, city, user_agent, mfa, reason, backend, status, datetime)
       SELECT 'l' || i, 'user_' || ${num('i % 20000')}, 'W', '10.' || ${num('i % 250')} || '.' || ${num('i / 250 % 250')} || '.' || ${num('i % 199')},
        CASE i % 4 WHEN 0 THEN 'Paris' WHEN 1 THEN 'Lyon' WHEN 2 THEN 'São Paulo' ELSE '上海' END, 'bench', 0, '', 'password',
        ${t}, ${datetime} FROM ${from}`,
    )
    .execute(db);
  // A bulk load is followed by fresh planner statistics, as autovacuum would give them soon after.
  await sql.raw(dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE').execute(db);
}

/** The LIKE scan the index replaced: the page of 15 and its count, as raw SQL. */
function likeScan(db: Kysely<DB>, dialect: string, list: 'users' | 'logs', term: string) {
  const op = sql.raw(dialect === 'postgres' ? 'ILIKE' : 'LIKE');
  const p = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (c: string) => sql`${sql.ref(c)} ${op} ${p} ESCAPE '\\'`;
  const f = dialect === 'postgres' ? sql`false` : sql`0`;
  const [where, table, order] =
    list === 'users'
      ? [
          sql`is_service_account = ${f} AND EXISTS (SELECT 1 FROM rbac_rolebinding b WHERE b.user_id = users_user.id AND scope = 'org' AND org_id = ${DEFAULT_ORG_ID}) AND (${like('username')} OR ${like('name')} OR ${like('email')})`,
          sql.table('users_user'),
          sql`name, id`,
        ]
      : [
          sql`(${like('username')} OR ${like('ip')} OR ${like('city')})`,
          sql.table('audits_userloginlog'),
          sql`datetime DESC, id`,
        ];
  const run = async (db: Kysely<DB>) => {
    await sql`SELECT count(*) FROM ${table} WHERE ${where}`.execute(db);
    await sql`SELECT * FROM ${table} WHERE ${where} ORDER BY ${order} LIMIT 15`.execute(db);
  };
  // PostgreSQL reads a GIN index only through bitmap scans: without them the trigram indexes are
  // not used, as before migration 1740.
  if (dialect === 'sqlite') return () => run(db);
  return () =>
    db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      await run(trx);
    });
}

export async function runSearchBench(databaseUrl?: string, pgSchema?: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    GATEHOUSE_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    GATEHOUSE_SSH_PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const deps = await openDeps(config, pgSchema ? { pgSchema } : {});
  const { dialect, db } = deps.database;
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const t0 = performance.now();
  await seed(db, dialect);
  console.log(
    `\n## search on ${label}: ${USERS} users, ${LOGS} login logs seeded (indexes kept by their triggers) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const headers = await signIn(base, PASSWORD);
    const cases: [list: 'users' | 'logs', url: string, org: string, terms: Record<string, string>][] = [
      [
        'users',
        '/api/v1/users/users/',
        DEFAULT_ORG_ID,
        { rare: 'user_4242', mid: 'user_12', common: 'user_4', 'non-ASCII, none': 'zürich' },
      ],
      [
        'logs',
        '/api/v1/audits/login-logs/',
        ROOT_ORG_ID,
        { rare: 'user_1234', mid: 'user_123', common: 'user_', 'non-ASCII, a quarter': 'são' },
      ],
    ];
    for (const [list, url, org, terms] of cases)
      for (const [kind, term] of Object.entries(terms)) {
        const page = `${base}${url}?limit=15&offset=0&search=${encodeURIComponent(term)}`;
        const h = { ...headers, 'x-jms-org': org };
        const api = async () => {
          const res = await fetch(page, { headers: h });
          if (!res.ok) throw new Error(`${page}: ${res.status}`);
          await res.json();
        };
        await api(); // warm-up
        const [a, raw] = await timeInTurns(RUNS, api, likeScan(db, dialect, list, term));
        compareLine(`${list} search, ${kind} term "${term}", ${RUNS} runs (raw: the LIKE scan)`, a, raw);
      }
  } finally {
    await app.close();
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
