import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely } from 'kysely';
import { DEFAULT_ORG_ID } from '@gatehouse/contract';
import { buildApp, openDeps } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { DB } from '../apps/server/src/platform/db/schema.ts';
import { inSubtree, orgRoot, recountOrg, type NodeDb } from '../apps/server/src/modules/assets/nodeStore.ts';
import { compareLine, peakMemory, timeInTurns, timeIt } from './stats.ts';
import { drain, fetchFresh, signIn } from './client.ts';

/**
 * Issue 14's benchmark: BENCH_ACCOUNTS accounts (100k) over BENCH_ACCOUNT_ASSETS assets (20k) in
 * 400 nodes. The account list page (search + order + node filter) next to the raw SQL of the same
 * query, and the streamed export of every secret (decrypted row by row) with its peak memory growth.
 */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const ASSETS = Number(process.env.BENCH_ACCOUNT_ASSETS ?? 20_000);
const NODES = 400;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const PASSWORD = 'Bench-pass1';

async function seed(n: NodeDb, seal: (s: string) => string): Promise<{ id: string; key: string }[]> {
  const db = n.db;
  const root = await orgRoot(n, DEFAULT_ORG_ID);
  const now = new Date().toISOString();
  const nodes = [{ id: root.id, key: root.key }];
  const nodeRows: Insertable<DB['assets_node']>[] = [];
  for (let i = 0; nodes.length < NODES; i++) {
    const parent = nodes[i]!;
    for (let c = 1; c <= 7 && nodes.length < NODES; c++) {
      const node = { id: randomUUID(), key: `${parent.key}:${c}` };
      nodes.push(node);
      nodeRows.push({
        id: node.id,
        key: node.key,
        value: `node ${node.key}`,
        parent_key: parent.key,
        child_mark: 7,
        assets_amount: 0,
        org_id: DEFAULT_ORG_ID,
        date_create: now,
      });
    }
  }
  const perAsset = Math.ceil(ACCOUNTS / ASSETS);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < nodeRows.length; i += 500)
      await trx
        .insertInto('assets_node')
        .values(nodeRows.slice(i, i + 500))
        .execute();
    let made = 0;
    for (let i = 0; i < ASSETS; i += 200) {
      const assets = [];
      const links = [];
      const accounts: Insertable<DB['accounts_account']>[] = [];
      for (let j = i; j < Math.min(ASSETS, i + 200); j++) {
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
          comment: '',
          gathered_info: '{}',
          org_id: DEFAULT_ORG_ID,
          created_by: 'bench',
          updated_by: 'bench',
          date_created: now,
          date_updated: now,
        });
        links.push({ id: randomUUID(), asset_id: id, node_id: nodes[1 + (j % (nodes.length - 1))]!.id });
        for (let k = 0; k < perAsset && made < ACCOUNTS; k++, made++) {
          const username = k === 0 ? 'root' : `user_${made}`;
          accounts.push({
            id: randomUUID(),
            name: username,
            username,
            secret_type: 'password',
            secret: seal(`Bench-secret-${made}`),
            passphrase: null,
            spec_info: '{}',
            privileged: k === 0,
            is_active: true,
            asset_id: id,
            su_from_id: null,
            version: 1,
            source: 'local',
            source_id: null,
            connectivity: '-',
            date_verified: null,
            params: '{}',
            comment: '',
            org_id: DEFAULT_ORG_ID,
            created_by: 'bench',
            updated_by: 'bench',
            date_created: now,
            date_updated: now,
          });
        }
      }
      await trx.insertInto('assets_asset').values(assets).execute();
      await trx.insertInto('assets_asset_nodes').values(links).execute();
      for (let a = 0; a < accounts.length; a += 100)
        await trx
          .insertInto('accounts_account')
          .values(accounts.slice(a, a + 100))
          .execute();
    }
  });
  await recountOrg(n, DEFAULT_ORG_ID);
  return nodes;
}

export async function runAccountsBench(databaseUrl?: string, pgSchema?: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    GATEHOUSE_ADMIN_PASSWORD: PASSWORD,
    GATEHOUSE_ADMIN_FIRST_LOGIN: '0',
    LOG_LEVEL: 'silent',
    GATEHOUSE_SSH_PORT: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const deps = await openDeps(config, pgSchema ? { pgSchema } : {});
  const label = deps.database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const db: Kysely<DB> = deps.database.db;
  const n: NodeDb = { db, dialect: deps.database.dialect };
  const t0 = performance.now();
  const nodes = await seed(n, (s) => deps.secretBox.encrypt(s));
  await sql`ANALYZE`.execute(db);
  console.log(
    `\n## accounts on ${label}: ${ACCOUNTS} accounts over ${ASSETS} assets in ${nodes.length} nodes seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const headers = await signIn(base, PASSWORD);
    // A depth-2 node: about a seventh of the assets below it.
    const node = nodes.find((x) => x.key.split(':').length === 2)!;
    const listUrl = `${base}/api/v1/accounts/accounts/?limit=15&offset=0&search=user_4&order=-name&node_id=${node.id}`;
    const first = (await (await fetch(listUrl, { headers })).json()) as { count?: number };
    if (typeof first.count !== 'number') throw new Error(`account list: ${JSON.stringify(first).slice(0, 200)}`);
    await timeIt(5, async () => (await fetch(listUrl, { headers })).json());
    const like = deps.database.dialect === 'postgres' ? sql`ILIKE` : sql`LIKE`;
    const under = db
      .selectFrom('assets_asset_nodes as an')
      .innerJoin('assets_node as nn', 'nn.id', 'an.node_id')
      .select('an.asset_id')
      .where(inSubtree(n, 'nn.key', node.key));
    const base0 = () => db.selectFrom('accounts_account as c');
    const rawListQuery = async () => {
      const term = '%user\\_4%';
      const where = (q: ReturnType<typeof base0>) =>
        q
          .where('c.org_id', '=', DEFAULT_ORG_ID)
          .where((eb) =>
            eb.or([
              sql<boolean>`c.username ${like} ${term} ESCAPE '\\'`,
              sql<boolean>`c.name ${like} ${term} ESCAPE '\\'`,
              sql<boolean>`c.comment ${like} ${term} ESCAPE '\\'`,
              eb(
                'c.asset_id',
                'in',
                db
                  .selectFrom('assets_asset as a')
                  .select('a.id')
                  .where((e2) =>
                    e2.or([
                      sql<boolean>`a.name ${like} ${term} ESCAPE '\\'`,
                      sql<boolean>`a.address ${like} ${term} ESCAPE '\\'`,
                    ]),
                  ),
              ),
            ]),
          )
          .where('c.asset_id', 'in', under);
      await where(base0())
        .select((eb) => eb.fn.countAll().as('n'))
        .execute();
      const rows = await where(base0()).selectAll('c').orderBy('c.name', 'desc').orderBy('c.id').limit(15).execute();
      const assetIds = [...new Set(rows.map((r) => r.asset_id))];
      if (assetIds.length) await db.selectFrom('assets_asset').selectAll().where('id', 'in', assetIds).execute();
    };
    await timeIt(5, rawListQuery);
    const [api, rawList] = await timeInTurns(
      RUNS,
      async () => (await fetchFresh(listUrl, { headers })).json(),
      rawListQuery,
    );
    compareLine(`account list page (search + order + node), ${RUNS} runs, ${first.count} matches`, api, rawList);

    // The secrets export: re-verify, then stream every account with its secret decrypted.
    const confirm = await fetchFresh(`${base}/api/v1/authentication/confirm/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ confirm_type: 'password', secret_key: PASSWORD }),
    });
    if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${await confirm.text()}`);
    const t1 = performance.now();
    const { result: bytes, peakMb } = await peakMemory(async () => {
      const res = await fetchFresh(`${base}/api/v1/accounts/account-secrets/?format=csv`, { headers });
      if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
      return drain(res);
    });
    const exportS = (performance.now() - t1) / 1000;
    // The baseline: every account row read into memory at once and its secret decrypted.
    const t2 = performance.now();
    const raw = await peakMemory(async () => {
      const rows = await db.selectFrom('accounts_account').selectAll().execute();
      return rows.map((r) => deps.secretBox.decrypt(r.secret!)).length;
    });
    console.log(
      `secrets export (CSV, ${ACCOUNTS} accounts): ${exportS.toFixed(1)} s, ${(bytes / 1024 / 1024).toFixed(1)} MiB streamed, peak memory +${peakMb.toFixed(1)} MiB | raw SQL of all rows into memory + decrypt: ${((performance.now() - t2) / 1000).toFixed(1)} s, peak memory +${raw.peakMb.toFixed(1)} MiB`,
    );
  } finally {
    await app.close();
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
