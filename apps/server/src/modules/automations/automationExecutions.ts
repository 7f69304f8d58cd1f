import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso } from '../../platform/db/schema.ts';
import { inSubtree } from '../assets/nodeStore.ts';
import { openTaskLog } from '../ops/taskLog.ts';

/**
 * An automation's execution is a row of the engine's queue (`ops_jobexecution`, docs/ops.md) with
 * `job_type` = the automation's type and `job_id` = the automation; `job_version` freezes what it
 * runs (the snapshot the contract shows, the assets with those under its nodes, the sealed secret
 * and rules). Its id is its task id: the task log opens under it at once.
 */
export type AutomationRow = Selectable<DB['accounts_automation']>;

export const AUTOMATION_TYPES = ['change_secret', 'push_account', 'gather_accounts'] as const;
export type AutomationType = (typeof AUTOMATION_TYPES)[number];

export interface AutomationVersion {
  type: string;
  name: string;
  comment: string;
  accounts: string[];
  assets: string[];
  node_amount: number;
  asset_amount: number;
  secret_type: string;
  secret_strategy: string;
  /** Sealed, as stored. */
  secret: string | null;
  passphrase: string | null;
  password_rules: Record<string, unknown>;
  ssh_key_change_strategy: string;
  params: Record<string, unknown>;
  is_sync_account: boolean;
  /** User ids told the result (change secret). */
  recipients?: string[];
}

export const parseJson = <T>(v: unknown, fallback: T): T => {
  try {
    const x = JSON.parse(String(v ?? '')) as unknown;
    return (x ?? fallback) as T;
  } catch {
    return fallback;
  }
};

/** The automation's assets: its own and every asset under its nodes (in its org). */
export async function automationAssets(
  db: Kysely<DB>,
  dialect: 'sqlite' | 'postgres',
  a: AutomationRow,
): Promise<string[]> {
  const own = await db
    .selectFrom('accounts_automation_assets')
    .select('asset_id')
    .where('automation_id', '=', a.id)
    .execute();
  const nodeIds = (
    await db.selectFrom('accounts_automation_nodes').select('node_id').where('automation_id', '=', a.id).execute()
  ).map((r) => r.node_id);
  const ids = new Set(own.map((r) => r.asset_id));
  if (nodeIds.length) {
    const keys = await db.selectFrom('assets_node').select('key').where('id', 'in', nodeIds).execute();
    for (const { key } of keys) {
      const rows = await db
        .selectFrom('assets_asset_nodes as an')
        .innerJoin('assets_node as n', 'n.id', 'an.node_id')
        .innerJoin('assets_asset as a', 'a.id', 'an.asset_id')
        .select('an.asset_id')
        .where('a.org_id', '=', a.org_id)
        .where(inSubtree({ db, dialect }, 'n.key', key))
        .execute();
      for (const r of rows) ids.add(r.asset_id);
    }
  }
  return [...ids];
}

export async function createAutomationExecution(
  db: Kysely<DB>,
  app: FastifyInstance,
  a: AutomationRow,
  o: { creatorId: string; createdBy: string; trigger: 'manual' | 'timing' },
): Promise<string> {
  const id = randomUUID();
  const assets = await automationAssets(db, app.deps.database.dialect, a);
  const nodes = await db
    .selectFrom('accounts_automation_nodes')
    .select('node_id')
    .where('automation_id', '=', a.id)
    .execute();
  const version: AutomationVersion = {
    type: a.type,
    name: a.name,
    comment: a.comment,
    accounts: parseJson<string[]>(a.accounts, []),
    assets,
    node_amount: nodes.length,
    asset_amount: assets.length,
    secret_type: a.secret_type,
    secret_strategy: a.secret_strategy,
    secret: a.secret,
    passphrase: a.passphrase,
    password_rules: parseJson<Record<string, unknown>>(a.password_rules, {}),
    ssh_key_change_strategy: a.ssh_key_change_strategy,
    params: parseJson<Record<string, unknown>>(a.params, {}),
    is_sync_account: Boolean(a.is_sync_account),
    recipients: parseJson<string[]>(a.recipients, []),
  };
  await db
    .insertInto('ops_jobexecution')
    .values({
      id,
      job_id: a.id,
      status: 'pending',
      trigger: o.trigger,
      parameters: '{}',
      material: `${a.type}:${a.name}`,
      job_type: a.type,
      job_version: JSON.stringify(version),
      summary: '{}',
      instance_id: null,
      is_finished: false,
      is_success: false,
      time_cost: 0,
      creator_id: o.creatorId,
      created_by: o.createdBy,
      date_created: nowIso(),
      date_start: null,
      date_finished: null,
      org_id: a.org_id,
    })
    .execute();
  await openTaskLog(app.deps.cache, id, o.creatorId);
  return id;
}
