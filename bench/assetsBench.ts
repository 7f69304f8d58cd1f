import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely } from 'kysely';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { buildApp, openDeps } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { DB } from '../apps/server/src/platform/db/schema.ts';
import {
  ancestorKeys,
  inSubtree,
  orgRoot,
  recountOrg,
  type NodeDb,
} from '../apps/server/src/modules/assets/nodeStore.ts';
import { compareLine, timeIt } from './stats.ts';
import { signIn } from './client.ts';
import { buildConsole, removeBuild, runAssetPageBench } from './pageBench.ts';

/**
 * Issue 7's benchmark: BENCH_ASSETS assets (100k) in BENCH_NODES nodes (10k, depth 6). The asset
 * list page with search and order, a node's children tree with its assets, and moving a subtree
 * with the per-node counts it changes, each next to the raw SQL of the same work in the same run.
 */
const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const NODES = Number(process.env.BENCH_NODES ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const PASSWORD = 'Bench-pass1';

interface SeededNode {
  id: string;
  key: string;
}

async function seed(n: NodeDb): Promise<SeededNode[]> {
  const db = n.db;
  const root = await orgRoot(n, DEFAULT_ORG_ID);
  const now = new Date().toISOString();
  const nodes: SeededNode[] = [{ id: root.id, key: root.key }];
  const marks = new Map<string, number>();
  const rows: Insertable<DB['assets_node']>[] = [];
  // Breadth first, 7 children each: 7 + 49 + 343 + 2401 + the rest at depth 6.
  for (let i = 0; nodes.length < NODES; i++) {
    const parent = nodes[i]!;
    for (let c = 1; c <= 7 && nodes.length < NODES; c++) {
      const node = { id: randomUUID(), key: `${parent.key}:${c}` };
      nodes.push(node);
      marks.set(parent.key, c);
      rows.push({
        id: node.id,
        key: node.key,
        value: `node ${node.key}`,
        parent_key: parent.key,
        child_mark: 0,
        assets_amount: 0,
        org_id: DEFAULT_ORG_ID,
        date_create: now,
      });
    }
  }
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('assets_node')
        .values(rows.slice(i, i + 500).map((r) => ({ ...r, child_mark: marks.get(r.key) ?? 0 })))
        .execute();
    await trx.updateTable('assets_node').set({ child_mark: 7 }).where('id', '=', root.id).execute();
    for (let i = 0; i < ASSETS; i += 500) {
      const assets = [];
      const links = [];
      const protos = [];
      for (let j = i; j < Math.min(ASSETS, i + 500); j++) {
        const id = randomUUID();
        assets.push({
          id,
          name: `host_${j}`,
          address: `10.${(j >> 16) & 255}.${(j >> 8) & 255}.${j & 255}`,
          platform_id: 1,
          category: 'host',
          type: 'linux',
          domain_id: null,
          is_active: true,
          connectivity: '-',
          date_verified: null,
          comment: `bench asset ${j}`,
          gathered_info: '{}',
          org_id: DEFAULT_ORG_ID,
          created_by: 'bench',
          updated_by: 'bench',
          date_created: now,
          date_updated: now,
        });
        links.push({ id: randomUUID(), asset_id: id, node_id: nodes[1 + (j % (nodes.length - 1))]!.id });
        protos.push({ id: randomUUID(), asset_id: id, name: 'ssh', port: 22 });
      }
      await trx.insertInto('assets_asset').values(assets).execute();
      await trx.insertInto('assets_asset_nodes').values(links).execute();
      await trx.insertInto('assets_protocol').values(protos).execute();
    }
  });
  await recountOrg(n, DEFAULT_ORG_ID);
  return nodes;
}

async function rawCounts(n: NodeDb, keys: string[]): Promise<void> {
  for (const key of keys) {
    await n.db
      .selectFrom('assets_asset_nodes as an')
      .innerJoin('assets_node as n', 'n.id', 'an.node_id')
      .select((eb) => eb.fn.count('an.asset_id').distinct().as('c'))
      .where(inSubtree(n, 'n.key', key))
      .execute();
  }
}

export async function runAssetsBench(databaseUrl?: string, pgSchema?: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  // The browser scenario needs the built console; it runs on SQLite only (the page's work is the same).
  const webDist = databaseUrl ? undefined : buildConsole();
  const config = loadConfig({
    DATA_DIR: dataDir,
    GATEHOUSE_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    GATEHOUSE_SSH_PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(webDist ? { GATEHOUSE_WEB_DIST: webDist } : {}),
  });
  const deps = await openDeps(config, pgSchema ? { pgSchema } : {});
  const label = deps.database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const db: Kysely<DB> = deps.database.db;
  const n: NodeDb = { db, dialect: deps.database.dialect };
  const t0 = performance.now();
  const nodes = await seed(n);
  await sql`ANALYZE`.execute(db);
  console.log(
    `\n## assets on ${label}: ${ASSETS} assets in ${nodes.length} nodes seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const headers = await signIn(base, PASSWORD);
    const listUrl = `${base}/api/v1/assets/hosts/?limit=15&offset=0&search=host_4&order=-name&display=1&draw=1`;
    await timeIt(5, async () => (await fetch(listUrl, { headers })).json());
    const api = await timeIt(RUNS, async () => (await fetch(listUrl, { headers })).json());
    const like = deps.database.dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const where = sql`a.org_id = ${DEFAULT_ORG_ID} AND a.category = 'host' AND (a.name ${like} '%host_4%' OR a.address ${like} '%host_4%' OR a.comment ${like} '%host_4%')`;
    const raw = await timeIt(RUNS, async () => {
      await sql`SELECT count(*) FROM assets_asset a WHERE ${where}`.execute(db);
      const rows = await sql<{
        id: string;
      }>`SELECT * FROM assets_asset a WHERE ${where} ORDER BY a.name DESC, a.id LIMIT 15`.execute(db);
      const ids = rows.rows.map((r) => r.id);
      await sql`SELECT * FROM assets_protocol WHERE asset_id IN (${sql.join(ids)})`.execute(db);
    });
    compareLine(`asset list page (search + order), ${RUNS} runs`, api, raw);

    const mid = nodes.find((x) => x.key.split(':').length === 4)!;
    const treeUrl = `${base}/api/v1/assets/nodes/children/tree/?key=${mid.key}&assets=1`;
    await timeIt(5, async () => (await fetch(treeUrl, { headers })).json());
    const tApi = await timeIt(RUNS, async () => (await fetch(treeUrl, { headers })).json());
    const tRaw = await timeIt(RUNS, async () => {
      await db
        .selectFrom('assets_node')
        .selectAll()
        .where('org_id', '=', DEFAULT_ORG_ID)
        .where('parent_key', '=', mid.key)
        .orderBy('value')
        .execute();
      await db
        .selectFrom('assets_asset as a')
        .innerJoin('assets_asset_nodes as an', 'an.asset_id', 'a.id')
        .innerJoin('assets_node as nn', 'nn.id', 'an.node_id')
        .selectAll('a')
        .where('nn.key', '=', mid.key)
        .execute();
    });
    compareLine(`children tree of ${mid.key} with assets, ${RUNS} runs`, tApi, tRaw);

    // Move a depth-3 subtree back and forth between two depth-2 parents; the API recounts both branches.
    const [p1, p2] = nodes.filter((x) => x.key.split(':').length === 2);
    const moving = nodes.find((x) => x.key.startsWith(`${p1!.key}:`) && x.key.split(':').length === 3)!;
    const moveRuns = Math.min(RUNS, 20);
    let to = p2!;
    const mApi = await timeIt(moveRuns, async () => {
      const res = await fetch(`${base}/api/v1/assets/nodes/${to.id}/children/add/`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ nodes: [moving.id] }),
      });
      if (res.status !== 200) throw new Error(`move: ${res.status} ${await res.text()}`);
      to = to === p2 ? p1! : p2!;
    });
    const touched = [...new Set([...ancestorKeys(p1!.key), ...ancestorKeys(p2!.key)])];
    const mRaw = await timeIt(moveRuns, () => rawCounts(n, touched));
    compareLine(`move a subtree + recount ${touched.length} ancestor counts, ${moveRuns} runs`, mApi, mRaw);

    if (webDist) {
      // The browser signs in as a returning administrator (no first-login page).
      await db.updateTable('users_user').set({ is_first_login: false }).where('username', '=', 'admin').execute();
      await runAssetPageBench(base, headers, PASSWORD, RUNS);
    }
  } finally {
    removeBuild(webDist);
    await app.close();
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
