import { setMaxListeners } from 'node:events';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { HostResult, Runner, RunnerHost, RunnerPlan } from '../ops/engine/runner.ts';
import { openTunnel, type Tunnel } from '../terminal/gateway/sshConnect.ts';
import { inParallel, withinLimits } from './hostLimits.ts';
import { hopOf, withVariables } from './sshRunner.ts';

/**
 * The database modules (`mysql` for MySQL and MariaDB, `postgresql`): the job's SQL runs on each
 * database asset through its own protocol with the account's password (the vault's, unsealed for
 * the run), reached through the asset's domain gateway as the terminal reaches hosts (an SSH
 * `forwardOut` tunnel; host keys trusted on first use). The rules were applied per line before
 * (hostPlan.ts). Each statement's rows are written as tab-separated lines under their column names,
 * or the count of rows it changed. No Ansible collection is needed (Debian's ansible-core has none
 * for databases); SQL Server has no client here and is refused with that reason.
 */
export const DATABASE_RUNNER_MODULES: Record<string, 'mysql' | 'postgresql'> = {
  mysql: 'mysql',
  mariadb: 'mysql',
  postgresql: 'postgresql',
};

type Rows = { fields: string[]; rows: unknown[][] } | { affected: number };

interface SqlSession {
  query(sql: string): Promise<Rows[]>;
  close(): void;
}

const cell = (v: unknown): string =>
  v === null || v === undefined
    ? 'NULL'
    : v instanceof Date
      ? v.toISOString()
      : Buffer.isBuffer(v)
        ? `0x${v.toString('hex')}`
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v).replace(/[\t\r\n]/g, ' ');

async function openMysql(host: RunnerHost, stream?: Duplex): Promise<SqlSession> {
  const c = host.connection;
  const conn = await mysql.createConnection({
    ...(stream ? { stream } : { host: c.host, port: c.port }),
    user: c.username,
    password: c.password ?? '',
    ...(host.dbName ? { database: host.dbName } : {}),
    multipleStatements: true,
    rowsAsArray: true,
    connectTimeout: 10_000,
  });
  return {
    async query(sql) {
      const [result, fields] = await conn.query(sql);
      // Several statements answer one result (and one field list) per statement.
      const many = Array.isArray(fields) && Array.isArray(fields[0]);
      const results = (many ? result : [result]) as unknown[];
      const fieldSets = (many ? fields : [fields]) as ({ name: string }[] | undefined)[];
      return results.map((r, i) =>
        Array.isArray(r)
          ? { fields: (fieldSets[i] ?? []).map((f) => f.name), rows: r as unknown[][] }
          : { affected: Number((r as { affectedRows?: number }).affectedRows ?? 0) },
      );
    },
    close: () => conn.destroy(),
  };
}

/** A tunnel channel as node-postgres wants a socket (it calls connect and setNoDelay on it). */
function asSocket(ch: Duplex): Duplex {
  return Object.assign(ch, {
    setNoDelay: () => ch,
    setKeepAlive: () => ch,
    connect: () => {
      process.nextTick(() => ch.emit('connect'));
      return ch;
    },
  });
}

async function openPostgres(host: RunnerHost, stream?: Duplex): Promise<SqlSession> {
  const c = host.connection;
  const client = new pg.Client({
    ...(stream ? { stream: () => asSocket(stream) } : { host: c.host, port: c.port }),
    user: c.username,
    password: c.password ?? '',
    database: host.dbName || c.username,
    connectionTimeoutMillis: 10_000,
  } as pg.ClientConfig);
  await client.connect();
  return {
    async query(sql) {
      const res = (await client.query({ text: sql, rowMode: 'array' })) as unknown as
        pg.QueryArrayResult | pg.QueryArrayResult[];
      return (Array.isArray(res) ? res : [res]).map((r) =>
        r.fields.length ? { fields: r.fields.map((f) => f.name), rows: r.rows } : { affected: r.rowCount ?? 0 },
      );
    },
    close: () => void client.end().catch(() => undefined),
  };
}

async function runHost(app: FastifyInstance, plan: RunnerPlan, host: RunnerHost): Promise<HostResult> {
  const started = Date.now();
  const work = plan.work;
  const sql = work.kind === 'module' ? withVariables(work.args, plan.variables) : '';
  const kind = work.kind === 'module' ? DATABASE_RUNNER_MODULES[work.module] : undefined;
  let kept = '';
  const line = (l: string) => {
    kept = `${kept}${l}\n`.slice(-64 * 1024);
    plan.output(host.assetId, l);
  };
  const done = (status: HostResult['status'], reason: string): HostResult => {
    if (reason && status !== 'ok') line(reason);
    return { assetId: host.assetId, status, reason, output: kept, timeCost: (Date.now() - started) / 1000 };
  };
  let tunnel: Tunnel | undefined;
  let session: SqlSession | undefined;
  let finished = false;
  const run = (async (): Promise<HostResult> => {
    if (!kind) return done('failed', 'not a database module');
    const { gateway, ...target } = host.connection;
    if (gateway) tunnel = await openTunnel(app.deps.database.db, 'en', hopOf(gateway.assetId, gateway), target);
    session = await (kind === 'mysql' ? openMysql : openPostgres)(host, tunnel?.sock);
    if (finished) return done('failed', 'stopped');
    for (const r of await session.query(sql)) {
      if ('affected' in r) line(`(${r.affected} rows affected)`);
      else {
        line(r.fields.join('\t'));
        for (const row of r.rows) line(row.map(cell).join('\t'));
        line(`(${r.rows.length} rows)`);
      }
    }
    return done('ok', '');
  })().catch((e: Error) => done('failed', e.message));
  return withinLimits(plan, run, done, () => {
    finished = true;
    session?.close();
    tunnel?.jump.end();
  });
}

export function databaseRunner(app: FastifyInstance): Runner {
  return {
    name: 'database',
    async available(work) {
      if (work.kind === 'module' && work.module in DATABASE_RUNNER_MODULES) return { ok: true };
      return {
        ok: false,
        reason:
          work.kind === 'module' && work.module === 'sqlserver'
            ? 'no SQL Server client is installed on this Gatehouse host'
            : 'the database runner runs the mysql and postgresql modules only',
      };
    },
    run(plan) {
      // One abort listener per host running at once.
      setMaxListeners(plan.parallel + 10, plan.signal);
      return inParallel(plan.hosts, plan.parallel, (h) => runHost(app, plan, h));
    },
  };
}
