import { spawn } from 'node:child_process';
import mysql from 'mysql2/promise';
import pg from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { dbAsset, scratchMysql, scratchPg } from '@gatehouse/server/test-support/dbAssets.ts';
import { freePort } from '@gatehouse/server/test-support/ports.ts';
import { signIn } from './client.ts';
import { startServerProcess } from './gatewayClients.ts';
import { percentile } from './stats.ts';

/**
 * Issue 32: the database proxies against the same database in one run (TLS off on both paths,
 * like with like: the clients would take the proxy's TLS when offered), the server of `main.ts` in
 * a child process (SQLite), so the proxy never shares a thread with the bench's own clients. (a) `SELECT` of BENCH_DB_ROWS (100k) rows with the real client (`psql`,
 * `mariadb`, output to nowhere) through the proxy next to the same client straight to the server,
 * in turns, best of BENCH_DB_RUNS (5); goal ≤ 1.3x. (b) a simple statement's round trip
 * (`select 1`, node-postgres / mysql2 on one open connection, BENCH_DB_TRIPS 2000 each, in turns)
 * p50 and p99; goal p50 ≤ direct + 1 ms. (c) BENCH_DB_CONNS (100) connections through the proxy
 * running a mixed workload (selects, inserts, updates, prepared statements) for BENCH_DB_SECONDS
 * (20; the 60 with BENCH_DB_SECONDS=60): errors, and statements run against those recorded.
 */
const ROWS = Number(process.env.BENCH_DB_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_DB_RUNS ?? 5);
const TRIPS = Number(process.env.BENCH_DB_TRIPS ?? 2000);
const CONNS = Number(process.env.BENCH_DB_CONNS ?? 100);
const SECONDS = Number(process.env.BENCH_DB_SECONDS ?? 20);
const PASSWORD = 'Bench-pass1!';

function run(cmd: string, args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd}: ${err}`))));
  });
}

async function bestInTurns(a: () => Promise<number>, b: () => Promise<number>): Promise<[number, number]> {
  let ba = Infinity;
  let bb = Infinity;
  for (let i = 0; i < RUNS; i++) {
    ba = Math.min(ba, await a());
    bb = Math.min(bb, await b());
  }
  return [ba, bb];
}

async function trips(query: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await query();
  return performance.now() - t0;
}

async function tripsInTurns(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number[], number[]]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < 100; i++) await Promise.all([a(), b()]); // warm up
  for (let i = 0; i < TRIPS; i++) {
    ta.push(await trips(a));
    tb.push(await trips(b));
  }
  return [ta, tb];
}

const ms = (x: number) => `${x.toFixed(2)} ms`;

export async function runDbProxyBench(): Promise<void> {
  const [pgDb, myDb] = await Promise.all([scratchPg(), scratchMysql()]);
  const [pgPort, myPort] = await Promise.all([freePort(), freePort()]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-dbbench-'));
  const server = await startServerProcess({
    DATA_DIR: path.join(dir, 'data'),
    GATEHOUSE_ADMIN_PASSWORD: PASSWORD,
    GATEHOUSE_POSTGRESQL_PORT: String(pgPort),
    GATEHOUSE_MYSQL_PORT: String(myPort),
  });
  try {
    const headers = await signIn(server.base, PASSWORD);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
    const post = async (url: string, body: Record<string, unknown>): Promise<any> => {
      const r = await fetch(new URL(url, server.base), { method: 'POST', headers, body: JSON.stringify(body) });
      if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const sqlite = new Database(path.join(dir, 'data', 'gatehouse.sqlite'), { readonly: true });
    const commandCount = () => (sqlite.prepare('select count(*) as n from terminal_command').get() as { n: number }).n;
    const p = await dbAsset(post, 'postgresql', pgDb);
    const m = await dbAsset(post, 'mariadb', myDb);
    const user = await post('/api/v1/users/users/', {
      name: 'bench',
      username: 'bench',
      email: 'bench@bench.test',
      password_strategy: 'custom',
      password: PASSWORD,
    });
    await post('/api/v1/perms/asset-permissions/', {
      name: 'db-bench',
      users: [user.id],
      assets: [p.asset.id, m.asset.id],
      accounts: ['@ALL'],
      actions: ['connect'],
    });
    const pgLogin = `bench@${p.account.name}@${p.asset.name}`;
    const myLogin = `bench@${m.account.name}@${m.asset.name}`;
    const own = new pg.Client({ connectionString: `postgres://${pgDb.user}@127.0.0.1:5432/${pgDb.name}` });
    await own.connect();
    own.on('error', () => undefined);
    await own.query(
      `CREATE TABLE big AS SELECT g AS id, md5(g::text) AS v, now() AS at FROM generate_series(1, ${ROWS}) g`,
    );
    const root = await mysql.createConnection({ host: '127.0.0.1', user: 'root', database: myDb.name });
    await root.query(`SET SESSION cte_max_recursion_depth = ${ROWS + 10}`).catch(() => undefined);
    await root.query(`SET SESSION max_recursive_iterations = ${ROWS + 10}`).catch(() => undefined);
    await root.query(
      `CREATE TABLE big AS WITH RECURSIVE s(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s WHERE id < ${ROWS}) SELECT id, md5(id) AS v, now() AS at FROM s`,
    );

    console.log(`\n## Database proxies (best of ${RUNS}; ${ROWS} rows; same client, same server, in turns)`);
    const psqlArgs = (port: number, u: string) => [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      u,
      '-d',
      pgDb.name,
      '-X',
      '-A',
      '-c',
      'select * from big',
    ];
    const [pgProxy, pgDirect] = await bestInTurns(
      () => run('psql', psqlArgs(pgPort, pgLogin), { PGPASSWORD: PASSWORD, PGSSLMODE: 'disable' }),
      () => run('psql', psqlArgs(5432, pgDb.user), { PGPASSWORD: pgDb.password, PGSSLMODE: 'disable' }),
    );
    console.log(
      `psql SELECT ${ROWS} rows: proxy ${ms(pgProxy)} | direct ${ms(pgDirect)} | ratio ${(pgProxy / pgDirect).toFixed(2)}x (goal ≤ 1.30x)`,
    );
    const myArgs = (port: number, u: string) => [
      '-h',
      '127.0.0.1',
      '-P',
      String(port),
      '-u',
      u,
      '--batch',
      '--skip-ssl',
      myDb.name,
      '-e',
      'select * from big',
    ];
    const [myProxy, myDirect] = await bestInTurns(
      () => run('mariadb', myArgs(myPort, myLogin), { MYSQL_PWD: PASSWORD }),
      () => run('mariadb', myArgs(3306, myDb.user), { MYSQL_PWD: myDb.password }),
    );
    console.log(
      `mariadb SELECT ${ROWS} rows: proxy ${ms(myProxy)} | direct ${ms(myDirect)} | ratio ${(myProxy / myDirect).toFixed(2)}x (goal ≤ 1.30x)`,
    );
    console.log(
      '  (each run signs in: through the proxy that is a Gatehouse password check, scrypt N=2^15, by design)',
    );
    // The same with a connection token's credentials (made before each run, not timed): no scrypt.
    const me = (await (await fetch(new URL('/api/v1/users/profile/', server.base), { headers })).json()) as {
      id: string;
    };
    await post('/api/v1/perms/asset-permissions/', {
      name: 'db-bench-admin',
      users: [me.id],
      assets: [p.asset.id, m.asset.id],
      accounts: ['@ALL'],
      actions: ['connect'],
    });
    const token = (asset: string, account: string, protocol: string) =>
      post('/api/v1/authentication/connection-token/', {
        asset,
        account,
        protocol,
        connect_method: 'db_client',
      }) as Promise<{
        id: string;
        value: string;
      }>;
    let pgTok = Infinity;
    let pgTokDirect = Infinity;
    for (let i = 0; i < RUNS; i++) {
      const tk = await token(p.asset.id, p.account.id, 'postgresql');
      pgTok = Math.min(
        pgTok,
        await run('psql', psqlArgs(pgPort, tk.id), { PGPASSWORD: tk.value, PGSSLMODE: 'disable' }),
      );
      pgTokDirect = Math.min(
        pgTokDirect,
        await run('psql', psqlArgs(5432, pgDb.user), { PGPASSWORD: pgDb.password, PGSSLMODE: 'disable' }),
      );
    }
    console.log(
      `psql SELECT ${ROWS} rows, token login: proxy ${ms(pgTok)} | direct ${ms(pgTokDirect)} | ratio ${(pgTok / pgTokDirect).toFixed(2)}x (goal ≤ 1.30x)`,
    );
    let myTok = Infinity;
    let myTokDirect = Infinity;
    for (let i = 0; i < RUNS; i++) {
      const tk = await token(m.asset.id, m.account.id, 'mariadb');
      myTok = Math.min(myTok, await run('mariadb', myArgs(myPort, tk.id), { MYSQL_PWD: tk.value }));
      myTokDirect = Math.min(myTokDirect, await run('mariadb', myArgs(3306, myDb.user), { MYSQL_PWD: myDb.password }));
    }
    console.log(
      `mariadb SELECT ${ROWS} rows, token login: proxy ${ms(myTok)} | direct ${ms(myTokDirect)} | ratio ${(myTok / myTokDirect).toFixed(2)}x (goal ≤ 1.30x)`,
    );

    // The same SELECT on an open connection: the relay alone.
    const pgP0 = new pg.Client({
      host: '127.0.0.1',
      port: pgPort,
      user: pgLogin,
      password: PASSWORD,
      database: pgDb.name,
    });
    const pgD0 = new pg.Client({
      host: '127.0.0.1',
      port: 5432,
      user: pgDb.user,
      password: pgDb.password,
      database: pgDb.name,
    });
    await Promise.all([pgP0.connect(), pgD0.connect()]);
    const [pgQP, pgQD] = await bestInTurns(
      () => trips(() => pgP0.query('select * from big')),
      () => trips(() => pgD0.query('select * from big')),
    );
    console.log(
      `pg SELECT ${ROWS} rows on an open connection: proxy ${ms(pgQP)} | direct ${ms(pgQD)} | ratio ${(pgQP / pgQD).toFixed(2)}x`,
    );
    await Promise.all([pgP0.end(), pgD0.end()]);
    const myP0 = await mysql.createConnection({
      host: '127.0.0.1',
      port: myPort,
      user: myLogin,
      password: PASSWORD,
      database: myDb.name,
      enableCleartextPlugin: true,
    });
    const myD0 = await mysql.createConnection({
      host: '127.0.0.1',
      port: 3306,
      user: myDb.user,
      password: myDb.password,
      database: myDb.name,
    });
    const [myQP, myQD] = await bestInTurns(
      () => trips(() => myP0.query('select * from big')),
      () => trips(() => myD0.query('select * from big')),
    );
    console.log(
      `mysql SELECT ${ROWS} rows on an open connection: proxy ${ms(myQP)} | direct ${ms(myQD)} | ratio ${(myQP / myQD).toFixed(2)}x`,
    );
    await Promise.all([myP0.end(), myD0.end()]);

    const pgP = new pg.Client({
      host: '127.0.0.1',
      port: pgPort,
      user: pgLogin,
      password: PASSWORD,
      database: pgDb.name,
    });
    const pgD = new pg.Client({
      host: '127.0.0.1',
      port: 5432,
      user: pgDb.user,
      password: pgDb.password,
      database: pgDb.name,
    });
    await Promise.all([pgP.connect(), pgD.connect()]);
    const [pp, pd] = await tripsInTurns(
      () => pgP.query('select 1'),
      () => pgD.query('select 1'),
    );
    console.log(
      `pg select 1 round trip: proxy p50 ${ms(percentile(pp, 50))} p99 ${ms(percentile(pp, 99))} | direct p50 ${ms(percentile(pd, 50))} p99 ${ms(percentile(pd, 99))} | p50 +${ms(percentile(pp, 50) - percentile(pd, 50))} (goal ≤ +1 ms)`,
    );
    await Promise.all([pgP.end(), pgD.end()]);
    const myP = await mysql.createConnection({
      host: '127.0.0.1',
      port: myPort,
      user: myLogin,
      password: PASSWORD,
      database: myDb.name,
      enableCleartextPlugin: true,
    });
    const myD = await mysql.createConnection({
      host: '127.0.0.1',
      port: 3306,
      user: myDb.user,
      password: myDb.password,
      database: myDb.name,
    });
    const [mp, md] = await tripsInTurns(
      () => myP.query('select 1'),
      () => myD.query('select 1'),
    );
    console.log(
      `mysql select 1 round trip: proxy p50 ${ms(percentile(mp, 50))} p99 ${ms(percentile(mp, 99))} | direct p50 ${ms(percentile(md, 50))} p99 ${ms(percentile(md, 99))} | p50 +${ms(percentile(mp, 50) - percentile(md, 50))} (goal ≤ +1 ms)`,
    );
    await Promise.all([myP.end(), myD.end()]);

    // (c) Many connections, a mixed workload, every statement recorded. Half on each proxy:
    // PostgreSQL here allows 100 connections in all.
    await own.query('CREATE TABLE mix (id serial primary key, n int, v text)');
    await root.query('CREATE TABLE mix (id int auto_increment primary key, n int, v text)');
    const before = commandCount();
    let sent = 0;
    let errors = 0;
    type Run = (sql: string, params?: unknown[], prepared?: boolean) => Promise<unknown>;
    const open = async (i: number): Promise<{ run: Run; end: () => Promise<void>; pg: boolean }> => {
      if (i % 2) {
        const c = await mysql.createConnection({
          ...{ host: '127.0.0.1', port: myPort, user: myLogin, password: PASSWORD, database: myDb.name },
          enableCleartextPlugin: true,
        });
        return {
          run: (sql, params, prepared) => (prepared ? c.execute(sql, params as never) : c.query(sql, params)),
          end: () => c.end(),
          pg: false,
        };
      }
      const c = new pg.Client({
        host: '127.0.0.1',
        port: pgPort,
        user: pgLogin,
        password: PASSWORD,
        database: pgDb.name,
      });
      await c.connect();
      return { run: (sql, params) => c.query(sql, params), end: () => c.end(), pg: true };
    };
    // Sign-ins one after another (each is a password check, scrypt); then the workload runs together.
    const conns = [];
    for (let i = 0; i < CONNS; i++) conns.push(await open(i));
    const until = Date.now() + SECONDS * 1000;
    const t0 = performance.now();
    await Promise.all(
      conns.map(async (c, i) => {
        const p = (n: number) => (c.pg ? `$${n}` : '?');
        for (let k = 0; Date.now() < until; k++) {
          const step = k % 4;
          try {
            if (step === 0) await c.run(`select count(*) from mix where n = ${p(1)}`, [i], true);
            else if (step === 1) await c.run(`insert into mix (n, v) values (${i}, 'w${k}')`);
            else if (step === 2)
              await c.run(`update mix set v = ${p(1)} where n = ${p(2)} and id % 7 = 0`, [`u${k}`, i], true);
            else await c.run(`select id, v from big where id between ${k % ROWS} and ${(k % ROWS) + 20}`);
            sent++;
          } catch {
            errors++;
          }
        }
      }),
    );
    const secs = (performance.now() - t0) / 1000;
    await Promise.all(conns.map((c) => c.end()));
    let recorded = 0;
    for (let w = 0; w < 100 && recorded < sent; w++) {
      recorded = commandCount() - before;
      if (recorded < sent) await new Promise((r) => setTimeout(r, 100));
    }
    console.log(
      `${CONNS} connections (half pg, half mysql), mixed workload for ${secs.toFixed(1)} s: ${sent} statements (${(sent / secs).toFixed(0)}/s), ${errors} errors, ${recorded} recorded`,
    );
    await own.end();
    await root.end();
    sqlite.close();
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    await Promise.all([pgDb.drop(), myDb.drop()]);
  }
}
