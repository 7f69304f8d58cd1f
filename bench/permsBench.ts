import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { BUILTIN_ROLE_IDS, DEFAULT_ORG_ID } from '@gatehouse/contract';
import { buildApp, openDeps } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { DB } from '../apps/server/src/platform/db/schema.ts';
import { ancestorKeys, orgRoot, recountOrg, type NodeDb } from '../apps/server/src/modules/assets/nodeStore.ts';
import { compareLine, ms, percentile, timeIt } from './stats.ts';
import { signIn } from './client.ts';

/**
 * Issue 15's benchmark: BENCH_PERM_ASSETS assets (60k) in BENCH_PERM_NODES nodes (10k, depth 6),
 * 10k users in 1k groups, 5k permissions (each: 2 users, 1 group, 3 nodes, 5 assets). For one
 * user: the first granted children tree, the full granted nodes list, the category tree and the
 * permed accounts of one asset, each next to the raw SQL of the same lookups in the same run;
 * then the time from a permission change to the user's next answer that shows it.
 */
const ASSETS = Number(process.env.BENCH_PERM_ASSETS ?? 60_000);
const NODES = Number(process.env.BENCH_PERM_NODES ?? 10_000);
const USERS = Number(process.env.BENCH_PERM_USERS ?? 10_000);
const GROUPS = Number(process.env.BENCH_PERM_GROUPS ?? 1_000);
const PERMS = Number(process.env.BENCH_PERM_PERMS ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const PASSWORD = 'Bench-pass1';
const CHUNK = 500;

/** A deterministic generator, so every run builds the same data. */
function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

async function insert(db: Kysely<DB>, table: keyof DB & string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK))
      .execute();
}

interface Seeded {
  nodes: { id: string; key: string }[];
  assets: string[];
  users: string[];
  groups: string[];
}

async function seed(n: NodeDb): Promise<Seeded> {
  const { db } = n;
  const pick = rng(42);
  const now = new Date().toISOString();
  const root = await orgRoot(n, DEFAULT_ORG_ID);
  const nodes = [{ id: root.id, key: root.key }];
  const nodeRows: Record<string, unknown>[] = [];
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
  const assets: string[] = [];
  const users: string[] = [];
  const groups: string[] = [];
  await db.transaction().execute(async (trx) => {
    await insert(trx, 'assets_node', nodeRows);
    const assetRows = [];
    const links = [];
    for (let j = 0; j < ASSETS; j++) {
      const id = randomUUID();
      assets.push(id);
      assetRows.push({
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
    }
    await insert(trx, 'assets_asset', assetRows);
    await insert(trx, 'assets_asset_nodes', links);
    const userRows = [];
    for (let i = 0; i < USERS; i++) {
      const id = randomUUID();
      users.push(id);
      userRows.push({
        id,
        username: `user_${i}`,
        name: `User ${i}`,
        email: `user_${i}@bench.example`,
        date_expired: '2099-01-01T00:00:00.000Z',
        date_joined: now,
        date_updated: now,
      });
    }
    await insert(trx, 'users_user', userRows);
    await insert(
      trx,
      'rbac_rolebinding',
      users.map((user_id) => ({
        id: randomUUID(),
        scope: 'org',
        user_id,
        role_id: BUILTIN_ROLE_IDS.OrgUser,
        org_id: DEFAULT_ORG_ID,
        created_by: 'bench',
        date_created: now,
      })),
    );
    const groupRows = [];
    for (let i = 0; i < GROUPS; i++) {
      const id = randomUUID();
      groups.push(id);
      groupRows.push({
        id,
        name: `group_${i}`,
        comment: '',
        org_id: DEFAULT_ORG_ID,
        created_by: 'bench',
        updated_by: 'bench',
        date_created: now,
        date_updated: now,
      });
    }
    await insert(trx, 'users_usergroup', groupRows);
    await insert(
      trx,
      'users_user_groups',
      users.map((user_id, i) => ({ id: randomUUID(), user_id, usergroup_id: groups[i % GROUPS]! })),
    );
    const perms = [];
    const pu = [];
    const pg = [];
    const pn = [];
    const pa = [];
    for (let i = 0; i < PERMS; i++) {
      const id = randomUUID();
      perms.push({
        id,
        name: `perm_${i}`,
        accounts: i % 3 ? '["@ALL"]' : '["root","@INPUT"]',
        actions: i % 2 ? 63 : 1,
        date_start: '2020-01-01T00:00:00.000Z',
        date_expired: '2090-01-01T00:00:00.000Z',
        is_active: true,
        from_ticket: false,
        comment: '',
        expire_notified: null,
        created_by: 'bench',
        updated_by: 'bench',
        date_created: now,
        date_updated: now,
        org_id: DEFAULT_ORG_ID,
      });
      const uniq = <T>(xs: T[]) => [...new Set(xs)];
      for (const u of uniq([pick(USERS), pick(USERS)]))
        pu.push({ id: randomUUID(), assetpermission_id: id, user_id: users[u]! });
      pg.push({ id: randomUUID(), assetpermission_id: id, usergroup_id: groups[pick(GROUPS)]! });
      for (const k of uniq([pick(NODES - 1), pick(NODES - 1), pick(NODES - 1)]))
        pn.push({ id: randomUUID(), assetpermission_id: id, node_id: nodes[1 + k]!.id });
      for (const a of uniq([0, 1, 2, 3, 4].map(() => pick(ASSETS))))
        pa.push({ id: randomUUID(), assetpermission_id: id, asset_id: assets[a]! });
    }
    await insert(trx, 'perms_assetpermission', perms);
    await insert(trx, 'perms_assetpermission_users', pu);
    await insert(trx, 'perms_assetpermission_user_groups', pg);
    await insert(trx, 'perms_assetpermission_nodes', pn);
    await insert(trx, 'perms_assetpermission_assets', pa);
  });
  await recountOrg(n, DEFAULT_ORG_ID);
  return { nodes, assets, users, groups };
}

/** The raw SQL of the lookups the grant endpoints make, on the same data. */
function rawLookups(n: NodeDb, userId: string) {
  const { db } = n;
  const now = new Date().toISOString();
  const subtree = (ref: RawBuilder<unknown>, key: string) =>
    n.dialect === 'postgres'
      ? sql`(${ref} = ${key} OR ${ref} LIKE ${`${key}:%`})`
      : sql`(${ref} = ${key} OR ${ref} GLOB ${`${key}:*`})`;
  const anySubtree = (ref: RawBuilder<unknown>, keys: string[]) =>
    keys.length
      ? sql`(${sql.join(
          keys.map((k) => subtree(ref, k)),
          sql` OR `,
        )})`
      : sql`1 = 0`;
  const permIds = async () =>
    (
      await sql<{
        id: string;
      }>`SELECT p.id FROM perms_assetpermission p WHERE p.is_active = ${true} AND p.date_start <= ${now} AND p.date_expired > ${now} AND p.org_id = ${DEFAULT_ORG_ID} AND (p.id IN (SELECT assetpermission_id FROM perms_assetpermission_users WHERE user_id = ${userId}) OR p.id IN (SELECT assetpermission_id FROM perms_assetpermission_user_groups WHERE usergroup_id IN (SELECT usergroup_id FROM users_user_groups WHERE user_id = ${userId})))`.execute(
        db,
      )
    ).rows.map((r) => r.id);
  const rootKeys = async (ids: string[]) => {
    const keys = (
      await sql<{
        key: string;
      }>`SELECT DISTINCT n.key FROM perms_assetpermission_nodes pn JOIN assets_node n ON n.id = pn.node_id WHERE pn.assetpermission_id IN (${sql.join(ids)})`.execute(
        db,
      )
    ).rows.map((r) => r.key);
    const sorted = keys.sort();
    return sorted.filter((k) => !sorted.some((r) => r !== k && k.startsWith(`${r}:`)));
  };
  const direct = (ids: string[]) =>
    sql`SELECT asset_id FROM perms_assetpermission_assets WHERE assetpermission_id IN (${sql.join(ids)})`;
  const granted = (ids: string[], roots: string[]) =>
    sql`SELECT an.asset_id FROM assets_asset_nodes an JOIN assets_node n ON n.id = an.node_id WHERE ${anySubtree(sql.ref('n.key'), roots)} UNION ${direct(ids)}`;
  const pairs = async (ids: string[], roots: string[]) => {
    await sql`SELECT an.asset_id, n.key FROM assets_asset_nodes an JOIN assets_node n ON n.id = an.node_id WHERE an.asset_id IN (${direct(ids)})`.execute(
      db,
    );
    await sql`SELECT an.asset_id, n.key FROM assets_node n JOIN assets_asset_nodes an ON an.node_id = n.id WHERE ${anySubtree(sql.ref('n.key'), roots)}`.execute(
      db,
    );
  };
  return {
    /** Top level: the org root's granted children with counts, and its own granted assets. */
    async firstTree() {
      const ids = await permIds();
      const roots = await rootKeys(ids);
      await pairs(ids, roots);
      const top = [...new Set(roots.map((r) => r.split(':')[0]!))];
      await sql`SELECT * FROM assets_node WHERE key IN (${sql.join([...top, ...roots.slice(0, 7)])})`.execute(db);
      await sql`SELECT count(*) FROM assets_favoriteasset WHERE user_id = ${userId} AND asset_id IN (${granted(ids, roots)})`.execute(
        db,
      );
      await sql`SELECT a.id, a.name FROM assets_asset a WHERE a.id IN (SELECT an.asset_id FROM assets_asset_nodes an JOIN assets_node n ON n.id = an.node_id WHERE n.key = ${top[0] ?? ''} AND an.asset_id IN (${direct(ids)}))`.execute(
        db,
      );
    },
    async allNodes() {
      const ids = await permIds();
      const roots = await rootKeys(ids);
      await sql`SELECT * FROM assets_node WHERE ${anySubtree(sql.ref('key'), roots)}`.execute(db);
      await pairs(ids, roots);
      const partial = [...new Set(roots.flatMap(ancestorKeys))];
      await sql`SELECT * FROM assets_node WHERE key IN (${sql.join(partial.length ? partial : [''])})`.execute(db);
    },
    async categoryTree() {
      const ids = await permIds();
      const roots = await rootKeys(ids);
      await sql`SELECT category, type, count(*) AS n FROM assets_asset WHERE id IN (${granted(ids, roots)}) GROUP BY category, type`.execute(
        db,
      );
    },
    async accounts(assetId: string) {
      const keys = (
        await sql<{
          key: string;
        }>`SELECT n.key FROM assets_asset_nodes an JOIN assets_node n ON n.id = an.node_id WHERE an.asset_id = ${assetId}`.execute(
          db,
        )
      ).rows.map((r) => r.key);
      const ancestors = [...new Set(keys.flatMap(ancestorKeys))];
      const ids = await permIds();
      await sql`SELECT id, accounts, actions, date_expired FROM perms_assetpermission WHERE id IN (${sql.join(ids)}) AND (id IN (SELECT assetpermission_id FROM perms_assetpermission_assets WHERE asset_id = ${assetId}) OR id IN (SELECT pn.assetpermission_id FROM perms_assetpermission_nodes pn JOIN assets_node n ON n.id = pn.node_id WHERE n.key IN (${sql.join(ancestors)})))`.execute(
        db,
      );
      await sql`SELECT id, name, username, secret, secret_type FROM accounts_account WHERE asset_id = ${assetId} AND is_active = ${true} ORDER BY name`.execute(
        db,
      );
    },
    permIds,
  };
}

export async function runPermsBench(databaseUrl?: string, pgSchema?: string): Promise<void> {
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
  const db: Kysely<DB> = deps.database.db;
  const n: NodeDb = { db, dialect: deps.database.dialect };
  const t0 = performance.now();
  const data = await seed(n);
  await sql`ANALYZE`.execute(db);
  console.log(
    `\n## perms on ${label}: ${ASSETS} assets in ${data.nodes.length} nodes, ${USERS} users in ${GROUPS} groups, ${PERMS} permissions, seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const headers = await signIn(base, PASSWORD);
    const get = async (url: string) => {
      const res = await fetch(`${base}${url}`, { headers });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<unknown>;
    };
    // The user with the most valid permissions among the first 200 (a busy user, not an empty one).
    let userId = data.users[0]!;
    let most = -1;
    for (const u of data.users.slice(0, 200)) {
      const c = (await rawLookups(n, u).permIds()).length;
      if (c > most) [userId, most] = [u, c];
    }
    const prefix = `/api/v1/perms/users/${userId}`;
    const granted = (await get(`${prefix}/assets/?limit=1`)) as { count: number; results: { id: string }[] };
    const nodes = (await get(`${prefix}/nodes/`)) as unknown[];
    console.log(`user with ${most} permissions: ${granted.count} granted assets in ${nodes.length} granted nodes`);
    const assetId = granted.results[0]!.id;
    for (const username of ['root', 'admin', 'deploy'])
      await fetch(`${base}/api/v1/accounts/accounts/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ asset: assetId, username, secret_type: 'password', secret: 'Bench-secret-1' }),
      });
    const raw = rawLookups(n, userId);
    // What every authenticated request costs here before any grant work (session, RBAC, org).
    await timeIt(3, () => get('/api/v1/orgs/orgs/current/'));
    const fixed = await timeIt(RUNS, () => get('/api/v1/orgs/orgs/current/'));
    console.log(
      `${label} an authenticated request that reads nothing else (GET orgs/current/): p50 ${ms(percentile(fixed, 50))}`,
    );
    const scenarios: [string, string, () => Promise<unknown>][] = [
      ['first granted children tree', `${prefix}/nodes/children-with-assets/tree/`, () => raw.firstTree()],
      ['full granted nodes list', `${prefix}/nodes/`, () => raw.allNodes()],
      ['category tree', `${prefix}/nodes/children-with-assets/category/tree/`, () => raw.categoryTree()],
      ['permed accounts of one asset', `${prefix}/assets/${assetId}/accounts/`, () => raw.accounts(assetId)],
    ];
    for (const [what, url, sqlOnly] of scenarios) {
      await timeIt(3, () => get(url));
      await timeIt(3, sqlOnly);
      const api = await timeIt(RUNS, () => get(url));
      const rawTimes = await timeIt(RUNS, sqlOnly);
      compareLine(`${label} ${what}`, api, rawTimes);
    }
    // A change seen on the next request: a new permission on a node the user was not granted.
    const free = data.nodes.find(
      (x) => x.key.split(':').length >= 4 && !nodes.some((g) => (g as { key: string }).key === x.key),
    )!;
    const t1 = performance.now();
    const res = await fetch(`${base}/api/v1/perms/asset-permissions/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'bench change', users: [userId], nodes: [free.id] }),
    });
    if (res.status !== 201) throw new Error(`permission create: ${res.status} ${await res.text()}`);
    const written = performance.now() - t1;
    const after = (await get(`${prefix}/nodes/`)) as { key: string }[];
    const total = performance.now() - t1;
    const seen = after.some((x) => x.key === free.key);
    console.log(
      `${label} permission change → visible on the next request: ${seen ? 'yes' : 'NO'} (write ${ms(written)}, write + next read ${ms(total)})`,
    );
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
