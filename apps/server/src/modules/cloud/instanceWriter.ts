import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Language } from '@gatehouse/contract';
import type { DB } from '../../platform/db/schema.ts';
import { toBool } from '../../platform/db/schema.ts';
import { accountTemplates, createFromTemplate } from '../accounts/fromTemplate.ts';
import { cm } from './cloudMessages.ts';
import type { CloudInstance, Decision } from './strategy.ts';

/**
 * One provider instance into one asset (docs/cloud.md, "A run"), each in its own transaction, so a
 * failure leaves no half-made asset. Known instances (`cloud_syncinstance` of the task) are updated
 * when their name, address or active state changed and otherwise left alone (a second run changes
 * nothing); new ones become host assets unless their address already is an asset of the org (another
 * account's or a hand-made one: skipped, naming it) or their name is taken.
 */
export type Action = 'created' | 'updated' | 'unchanged' | 'skipped' | 'failed';

export interface TaskPlan {
  taskId: string;
  orgId: string;
  executionId: string;
  hostnameStrategy: string;
  createdBy: string;
  lang: Language;
  /** The domain the scan went through (a `lan` account's `domain`): hosts it creates belong to it. */
  domainId?: string;
}

export interface Target {
  platformId: number;
  protocols: { name: string; port: number }[];
  nodeIds: string[];
  labels: string[];
}

export interface WriteResult {
  action: Action;
  name: string;
  reason: string;
}

const ADDRESS = /^[A-Za-z0-9][A-Za-z0-9.:_-]{0,254}$/;

/** The asset's name: the instance's name or address, without control characters, at most 128 characters. */
export function assetName(i: CloudInstance, strategy: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = (strategy === 'ip' ? i.address : i.name || i.address).replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.trim().slice(0, 128);
}

async function labelIds(db: Kysely<DB>, orgId: string, labels: string[], now: string): Promise<string[]> {
  const ids: string[] = [];
  for (const l of labels) {
    const at = l.indexOf(':');
    const name = l.slice(0, at).trim().slice(0, 128);
    const value = l
      .slice(at + 1)
      .trim()
      .slice(0, 128);
    const found = await db
      .selectFrom('assets_label')
      .select('id')
      .where('org_id', '=', orgId)
      .where('name', '=', name)
      .where('value', '=', value)
      .executeTakeFirst();
    if (found) ids.push(found.id);
    else {
      const id = randomUUID();
      await db
        .insertInto('assets_label')
        .values({
          id,
          name,
          value,
          category: 'U',
          is_active: true,
          comment: '',
          org_id: orgId,
          created_by: 'cloud sync',
          updated_by: 'cloud sync',
          date_created: now,
          date_updated: now,
        })
        .execute();
      ids.push(id);
    }
  }
  return ids;
}

async function link(db: Kysely<DB>, assetId: string, t: Target, orgId: string, now: string): Promise<void> {
  const haveNodes = new Set(
    (await db.selectFrom('assets_asset_nodes').select('node_id').where('asset_id', '=', assetId).execute()).map(
      (r) => r.node_id,
    ),
  );
  const nodes = t.nodeIds.filter((n) => !haveNodes.has(n));
  if (nodes.length)
    await db
      .insertInto('assets_asset_nodes')
      .values(nodes.map((node_id) => ({ id: randomUUID(), asset_id: assetId, node_id })))
      .execute();
  const labels = await labelIds(db, orgId, t.labels, now);
  const haveLabels = new Set(
    (await db.selectFrom('assets_asset_labels').select('label_id').where('asset_id', '=', assetId).execute()).map(
      (r) => r.label_id,
    ),
  );
  const newLabels = labels.filter((l) => !haveLabels.has(l));
  if (newLabels.length)
    await db
      .insertInto('assets_asset_labels')
      .values(newLabels.map((label_id) => ({ id: randomUUID(), asset_id: assetId, label_id })))
      .execute();
  return void (nodes.length + newLabels.length);
}

/**
 * The strategies' `account` actions: an account from each named template of the task's organisation
 * that the asset lacks (accounts/fromTemplate.ts); answers how many were made (0 on a second run).
 */
async function templateAccounts(
  tx: Kysely<DB>,
  asset: { id: string; platform_id: number },
  ids: string[],
  plan: TaskPlan,
): Promise<number> {
  const templates = await accountTemplates(tx, plan.orgId, ids);
  const su = new Map(
    (
      await accountTemplates(
        tx,
        plan.orgId,
        templates.flatMap((t) => (t.su_from_id ? [t.su_from_id] : [])),
      )
    ).map((t) => [t.id, t]),
  );
  let made = 0;
  for (const tpl of templates) {
    const suFrom = tpl.su_from_id ? su.get(tpl.su_from_id) : undefined;
    const id = await createFromTemplate(tx, tpl, asset, {
      orgId: plan.orgId,
      by: plan.createdBy,
      ...(suFrom ? { suFrom } : {}),
    });
    if (id) made++;
  }
  return made;
}

export async function writeInstance(
  db: Kysely<DB>,
  plan: TaskPlan,
  i: CloudInstance,
  target: Target,
  d: Decision,
): Promise<WriteResult> {
  const name = assetName(i, plan.hostnameStrategy);
  if (!name || !ADDRESS.test(i.address) || !i.instance_id)
    return { action: 'skipped', name, reason: cm(plan.lang, 'bad_instance') };
  const now = new Date().toISOString();
  return db.transaction().execute(async (tx) => {
    const known = await tx
      .selectFrom('cloud_syncinstance')
      .selectAll()
      .where('task_id', '=', plan.taskId)
      .where('instance_id', '=', i.instance_id)
      .executeTakeFirst();
    const asset = known?.asset_id
      ? await tx
          .selectFrom('assets_asset')
          .select(['id', 'name', 'address', 'is_active', 'platform_id'])
          .where('id', '=', known.asset_id)
          .executeTakeFirst()
      : undefined;
    const mark = async (assetId: string) => {
      const values = {
        region: i.region.slice(0, 64),
        name,
        address: i.address,
        asset_id: assetId,
        status: 'present',
        last_execution_id: plan.executionId,
        date_sync: now,
      };
      if (known) await tx.updateTable('cloud_syncinstance').set(values).where('id', '=', known.id).execute();
      else
        await tx
          .insertInto('cloud_syncinstance')
          .values({
            id: randomUUID(),
            task_id: plan.taskId,
            instance_id: i.instance_id.slice(0, 128),
            org_id: plan.orgId,
            ...values,
          })
          .execute();
    };
    const clash = async (field: 'name' | 'address', value: string, except?: string) => {
      let q = tx
        .selectFrom('assets_asset')
        .select(['id', 'name'])
        .where('org_id', '=', plan.orgId)
        .where(field, '=', value);
      if (except) q = q.where('id', '!=', except);
      return q.executeTakeFirst();
    };
    if (asset) {
      const changes: Record<string, unknown> = {};
      if (asset.name !== name) changes.name = name;
      if (asset.address !== i.address) changes.address = i.address;
      if (!toBool(asset.is_active)) changes.is_active = true;
      if (changes.name && (await clash('name', name, asset.id)))
        return { action: 'failed' as const, name, reason: cm(plan.lang, 'name_taken', { name }) };
      if (Object.keys(changes).length)
        await tx
          .updateTable('assets_asset')
          .set({ ...changes, updated_by: plan.createdBy, date_updated: now })
          .where('id', '=', asset.id)
          .execute();
      await link(tx, asset.id, target, plan.orgId, now);
      const accounts = await templateAccounts(tx, asset, d.accounts, plan);
      await mark(asset.id);
      const changed = Object.keys(changes).length > 0 || accounts > 0;
      return { action: changed ? ('updated' as const) : ('unchanged' as const), name, reason: '' };
    }
    const byAddress = await clash('address', i.address);
    if (byAddress)
      return {
        action: 'skipped' as const,
        name,
        reason: cm(plan.lang, 'address_taken', { address: i.address, asset: byAddress.name }),
      };
    if (await clash('name', name))
      return { action: 'skipped' as const, name, reason: cm(plan.lang, 'name_taken', { name }) };
    const platform = await tx
      .selectFrom('assets_platform')
      .select(['id', 'category', 'type'])
      .where('id', '=', target.platformId)
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    await tx
      .insertInto('assets_asset')
      .values({
        id,
        name,
        address: i.address,
        platform_id: platform.id,
        category: platform.category,
        type: platform.type,
        domain_id: plan.domainId ?? null,
        is_active: true,
        connectivity: '-',
        date_verified: null,
        comment: '',
        gathered_info: JSON.stringify({ cloud: { instance_id: i.instance_id, region: i.region, os: i.os } }),
        org_id: plan.orgId,
        created_by: plan.createdBy,
        updated_by: plan.createdBy,
        date_created: now,
        date_updated: now,
      })
      .execute();
    if (target.protocols.length)
      await tx
        .insertInto('assets_protocol')
        .values(target.protocols.map((p) => ({ id: randomUUID(), asset_id: id, name: p.name, port: p.port })))
        .execute();
    await link(tx, id, target, plan.orgId, now);
    await templateAccounts(tx, { id, platform_id: platform.id }, d.accounts, plan);
    await mark(id);
    return { action: 'created' as const, name, reason: '' };
  });
}
