import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID } from '@gatehouse/contract';
import { buildApp, openDeps } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { compareLine, timeIt } from './stats.ts';
import { signIn } from './client.ts';

/**
 * Issue 3's benchmark: 100k users. A list page with search and order next to the raw SQL of the
 * same query measured in the same run. The export of every row is measured by exportBench.ts, with
 * the server in its own process (a long raw query here would block this process's server).
 */
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const PASSWORD = 'Bench-pass1';

async function seedUsers(db: Awaited<ReturnType<typeof openDeps>>['database']['db'], n: number): Promise<void> {
  const now = new Date().toISOString();
  const batch = 500;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < n; i += batch) {
      const users = [];
      const bindings = [];
      for (let j = i; j < Math.min(n, i + batch); j++) {
        const id = randomUUID();
        users.push({
          id,
          username: `user_${j}`,
          name: `User ${j}`,
          email: `user_${j}@example.com`,
          password: '',
          is_active: j % 10 !== 0,
          is_first_login: false,
          need_update_password: false,
          is_service_account: false,
          source: 'local',
          mfa_level: 0,
          phone: '',
          wechat: '',
          comment: `bench row ${j}`,
          date_expired: '2090-01-01T00:00:00.000Z',
          date_joined: now,
          last_login: null,
          date_password_last_updated: now,
          created_by: 'bench',
          updated_by: 'bench',
          date_updated: now,
        });
        bindings.push({
          id: randomUUID(),
          scope: 'org' as const,
          user_id: id,
          role_id: BUILTIN_ROLE_IDS.OrgUser,
          org_id: DEFAULT_ORG_ID,
          created_by: 'bench',
          date_created: now,
        });
      }
      await trx.insertInto('users_user').values(users).execute();
      await trx.insertInto('rbac_rolebinding').values(bindings).execute();
    }
  });
}

export async function runUsersBench(databaseUrl?: string, pgSchema?: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    GATEHOUSE_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    GATEHOUSE_SSH_PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const deps = await openDeps(config, pgSchema ? { pgSchema } : {});
  const label = deps.database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const db = deps.database.db;
  const t0 = performance.now();
  await seedUsers(db, USERS);
  // A bulk load is followed by fresh planner statistics, as autovacuum would give them soon after.
  await sql`ANALYZE`.execute(db);
  console.log(`\n## users on ${label}: ${USERS} rows seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const headers = await signIn(base, PASSWORD);
    const listUrl = `${base}/api/v1/users/users/?limit=15&offset=0&search=user_4&order=-username&display=1&draw=1`;
    await timeIt(5, async () => (await fetch(listUrl, { headers })).json()); // warm-up
    const api = await timeIt(RUNS, async () => (await fetch(listUrl, { headers })).json());
    const like = deps.database.dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const members = sql`u.id IN (SELECT user_id FROM rbac_rolebinding WHERE scope = 'org' AND org_id = ${DEFAULT_ORG_ID})`;
    const match = sql`(u.username ${like} '%user_4%' OR u.name ${like} '%user_4%' OR u.email ${like} '%user_4%')`;
    const raw = await timeIt(RUNS, async () => {
      await sql`SELECT count(*) FROM users_user u WHERE u.is_service_account = ${false} AND ${members} AND ${match}`.execute(
        db,
      );
      await sql`SELECT * FROM users_user u WHERE u.is_service_account = ${false} AND ${members} AND ${match} ORDER BY u.username DESC, u.id LIMIT 15`.execute(
        db,
      );
    });
    compareLine(`list page (search + order), ${RUNS} runs`, api, raw);
  } finally {
    await app.close();
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
