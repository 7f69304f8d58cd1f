import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { runUsersBench } from './usersBench.ts';
import { runAssetsBench } from './assetsBench.ts';
import { runBundleBench } from './bundleBench.ts';

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

console.log('# Gatehouse benchmarks');
const only = process.argv[2];
const withinBudget = await runBundleBench();
if (!withinBudget) process.exitCode = 1;
if (only === 'bundle') process.exit();
await runUsersBench();
await runAssetsBench();
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) await withPgSchema(pgUrl, (schema) => runUsersBench(pgUrl, schema));
if (pgUrl) await withPgSchema(pgUrl, (schema) => runAssetsBench(pgUrl, schema));
