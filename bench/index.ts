import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { runUsersBench } from './usersBench.ts';
import { runAssetsBench } from './assetsBench.ts';
import { runBundleBench } from './bundleBench.ts';
import { runAccountsBench } from './accountsBench.ts';
import { runPermsBench } from './permsBench.ts';
import { runGatewayBench } from './gatewayBench.ts';
import { runAuditBench } from './auditBench.ts';
import { runSftpBench } from './sftpBench.ts';
import { runDashboardBench } from './dashboardBench.ts';
import { runJobsBench } from './jobsBench.ts';
import { runDbProxyBench } from './dbProxyBench.ts';
import { runGraphicalBench } from './graphicalBench.ts';
import { runAutomationsBench } from './automationsBench.ts';
import { runPagesBench } from './pagesBench.ts';
import { runExportBench } from './exportBench.ts';
import { runSearchBench } from './searchBench.ts';

/**
 * `npm run bench`: scenarios print their timings next to a baseline measured in the same run
 * (raw SQL of the same query), so results compare across machines. SQLite always; PostgreSQL too
 * when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set. The console's first-load JavaScript is
 * held against its budgets (bundleBench.ts): over budget, the run exits 1. `npm run bench -- bundle`
 * runs only that part.
 */
async function withPgSchema(url: string, fn: (schema: string) => Promise<void>): Promise<void> {
  const schema = `gh_bench_${randomBytes(4).toString('hex')}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  try {
    await fn(schema);
  } finally {
    await c.query(`DROP SCHEMA ${schema} CASCADE`);
    await c.end();
  }
}

/** `npm run bench -- bundle` or BENCH_ONLY=bundle,pages,users,search,export,assets,accounts,perms,gateway,audit,sftp,dashboard,jobs,dbproxy,graphical,automations runs some scenarios only (default: all). */
const only = (process.env.BENCH_ONLY ?? process.argv[2])?.split(',').map((s) => s.trim());
const scenarios: [string, (url?: string, schema?: string) => Promise<void>][] = [
  ['users', runUsersBench],
  ['assets', runAssetsBench],
  ['accounts', runAccountsBench],
  ['perms', runPermsBench],
  ['gateway', runGatewayBench],
  ['audit', runAuditBench],
  ['dashboard', runDashboardBench],
  ['search', runSearchBench],
].filter(([name]) => !only || only.includes(name as string)) as [
  string,
  (url?: string, schema?: string) => Promise<void>,
][];

console.log('# Gatehouse benchmarks');
const withinBudget = !only || only.includes('bundle') ? await runBundleBench() : true;
if (!withinBudget) process.exitCode = 1;
for (const [, run] of scenarios) await run();
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) for (const [, run] of scenarios) await withPgSchema(pgUrl, (schema) => run(pgUrl, schema));
// 1M users and 1M commands exported by a server in its own process, next to the raw query (goal: 2x, +100 MiB).
if (!only || only.includes('export')) {
  if (!(await runExportBench())) process.exitCode = 1;
  if (pgUrl)
    await withPgSchema(
      pgUrl,
      async (schema) => void (!(await runExportBench(pgUrl, schema)) && (process.exitCode = 1)),
    );
}
// SFTP through the gateway next to direct SFTP (no database in the measured path: SQLite only).
if (!only || only.includes('sftp')) await runSftpBench();
// Console pages in Chromium, time to first rows next to a bare page making the same API calls (SQLite only).
if ((!only || only.includes('pages')) && !(await runPagesBench())) process.exitCode = 1;
// A quick job over N asset records on one sshd next to N bare SSH execs (SQLite only).
if (!only || only.includes('jobs')) await runJobsBench();
// The database proxies next to the same clients straight to the machine's MariaDB and PostgreSQL (SQLite only).
if (!only || only.includes('dbproxy')) await runDbProxyBench();
// VNC frame latency through the gateway next to a direct RFB client (SQLite only).
if (!only || only.includes('graphical')) await runGraphicalBench();
// One change-secret execution over N database accounts on the machine's MariaDB (SQLite only).
if (!only || only.includes('automations')) await runAutomationsBench();
