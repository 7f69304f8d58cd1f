import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { nowIso, toBool } from '../../platform/db/schema.ts';
import { actorOf } from '../../resource/audit.ts';
import { inSubtree } from '../assets/nodeStore.ts';
import { openTaskLog } from '../ops/taskLog.ts';
import { setTemplateAccounts } from '../perms/templateAccountsPort.ts';
import { accountTemplates, createFromTemplate, type AccountTemplateRow } from '../accounts/fromTemplate.ts';
import { parseJson, type AutomationVersion } from './automationExecutions.ts';

/**
 * A permission's `%<template id>` accounts (contract §4.12): once the permission is saved, the
 * template's account is created on each of its assets (its own and those under its nodes) that has
 * no account of the template's username, and pushed where the template asks (`auto_push`, its
 * `platforms` if any, a platform whose `automation` does not say `push_account_enabled: false`).
 * Both happen in one push execution of the engine (`job_id` empty, `templates` in its version) so
 * the task log tells them; saving again finds nothing missing and queues nothing.
 */
type TemplateRow = AccountTemplateRow;

export interface TemplateVersion extends AutomationVersion {
  /** The templates whose accounts the run creates on `assets` (a permission's `%<id>`). */
  templates: string[];
  permission: string;
}

/** The permission's assets: its own and every asset under its nodes, in its org. */
async function permissionAssets(app: FastifyInstance, permId: string, orgId: string): Promise<string[]> {
  const db = app.deps.database.db;
  const own = await db
    .selectFrom('perms_assetpermission_assets as pa')
    .innerJoin('assets_asset as a', 'a.id', 'pa.asset_id')
    .select('pa.asset_id')
    .where('pa.assetpermission_id', '=', permId)
    .where('a.org_id', '=', orgId)
    .execute();
  const ids = new Set(own.map((r) => r.asset_id));
  const keys = await db
    .selectFrom('perms_assetpermission_nodes as pn')
    .innerJoin('assets_node as n', 'n.id', 'pn.node_id')
    .select('n.key')
    .where('pn.assetpermission_id', '=', permId)
    .execute();
  for (const { key } of keys) {
    const rows = await db
      .selectFrom('assets_asset_nodes as an')
      .innerJoin('assets_node as n', 'n.id', 'an.node_id')
      .innerJoin('assets_asset as a', 'a.id', 'an.asset_id')
      .select('an.asset_id')
      .where('a.org_id', '=', orgId)
      .where(inSubtree({ db, dialect: app.deps.database.dialect }, 'n.key', key))
      .execute();
    for (const r of rows) ids.add(r.asset_id);
  }
  return [...ids];
}

/** Of `assetIds`, those lacking an account of some template's username. */
async function assetsMissing(db: Kysely<DB>, assetIds: string[], templates: TemplateRow[]): Promise<string[]> {
  const out: string[] = [];
  const usernames = templates.map((t) => t.username);
  for (let i = 0; i < assetIds.length; i += 500) {
    const chunk = assetIds.slice(i, i + 500);
    const have = await db
      .selectFrom('accounts_account')
      .select(['asset_id', 'username'])
      .where('asset_id', 'in', chunk)
      .where('username', 'in', usernames)
      .execute();
    const got = new Set(have.map((h) => `${h.asset_id}\n${h.username}`));
    for (const a of chunk) if (usernames.some((u) => !got.has(`${a}\n${u}`))) out.push(a);
  }
  return out;
}

/** Queues the creation (and push) of a permission's template accounts, when some are missing. */
export async function queueTemplateAccounts(
  app: FastifyInstance,
  permId: string,
  by: { userId: string; actor: string },
): Promise<string | undefined> {
  const db = app.deps.database.db;
  const perm = await db
    .selectFrom('perms_assetpermission')
    .select(['id', 'name', 'org_id', 'accounts'])
    .where('id', '=', permId)
    .executeTakeFirst();
  if (!perm) return undefined;
  const ids = parseJson<string[]>(perm.accounts, [])
    .filter((a) => a.startsWith('%'))
    .map((a) => a.slice(1));
  const templates = (await accountTemplates(db, perm.org_id, ids)).filter((t) => t.username);
  if (!templates.length) return undefined;
  const assets = await assetsMissing(db, await permissionAssets(app, perm.id, perm.org_id), templates);
  if (!assets.length) return undefined;
  const id = randomUUID();
  const version: TemplateVersion = {
    type: 'push_account',
    name: `${perm.name}: ${templates.map((t) => t.name).join(', ')}`.slice(0, 120),
    comment: '',
    accounts: [...new Set(templates.map((t) => t.username))],
    assets,
    node_amount: 0,
    asset_amount: assets.length,
    secret_type: 'password',
    secret_strategy: 'specific',
    secret: null,
    passphrase: null,
    password_rules: {},
    ssh_key_change_strategy: 'add',
    params: {},
    is_sync_account: false,
    templates: templates.map((t) => t.id),
    permission: perm.id,
  };
  await db
    .insertInto('ops_jobexecution')
    .values({
      id,
      job_id: '',
      status: 'pending',
      trigger: 'manual',
      parameters: '{}',
      material: 'push_account:template',
      job_type: 'push_account',
      job_version: JSON.stringify(version),
      summary: '{}',
      instance_id: null,
      is_finished: false,
      is_success: false,
      time_cost: 0,
      creator_id: by.userId,
      created_by: by.actor,
      date_created: nowIso(),
      date_start: null,
      date_finished: null,
      org_id: perm.org_id,
    })
    .execute();
  await openTaskLog(app.deps.cache, id, by.userId);
  return id;
}

/** Whether the template pushes its accounts onto `asset` (its `auto_push`, platforms and the platform's automation). */
async function pushes(db: Kysely<DB>, tpl: TemplateRow, asset: { platform_id: number }): Promise<boolean> {
  if (!toBool(tpl.auto_push)) return false;
  const only = await db
    .selectFrom('accounts_accounttemplate_platforms')
    .select('platform_id')
    .where('accounttemplate_id', '=', tpl.id)
    .execute();
  if (only.length && !only.some((p) => Number(p.platform_id) === Number(asset.platform_id))) return false;
  const platform = await db
    .selectFrom('assets_platform')
    .select('automation')
    .where('id', '=', asset.platform_id)
    .executeTakeFirst();
  return parseJson<Record<string, unknown>>(platform?.automation, {}).push_account_enabled !== false;
}

/**
 * In the run (automationHandler.ts): the templates' accounts missing on `assetId` created there
 * (the template's username, secret as sealed, privileged, `su_from` the asset's account of the
 * template's `su_from` username, `params` its `push_params`). Answers the ids of those to push.
 */
export async function createTemplateAccounts(
  app: FastifyInstance,
  exec: { org_id: string; created_by: string },
  v: TemplateVersion,
  assetId: string,
  log: (line: string) => void,
): Promise<Set<string>> {
  const db = app.deps.database.db;
  const toPush = new Set<string>();
  const asset = await db
    .selectFrom('assets_asset')
    .select(['id', 'name', 'address', 'platform_id'])
    .where('id', '=', assetId)
    .where('org_id', '=', exec.org_id)
    .executeTakeFirst();
  if (!asset) return toPush;
  const label = `[${asset.name}(${asset.address})]`;
  const templates = await accountTemplates(db, exec.org_id, v.templates);
  const suTemplates = new Map(
    (
      await accountTemplates(
        db,
        exec.org_id,
        templates.flatMap((t) => (t.su_from_id ? [t.su_from_id] : [])),
      )
    ).map((t) => [t.id, t]),
  );
  for (const tpl of templates) {
    const su = tpl.su_from_id ? suTemplates.get(tpl.su_from_id) : undefined;
    const id = await createFromTemplate(db, tpl, asset, {
      orgId: exec.org_id,
      by: exec.created_by,
      ...(su ? { suFrom: su } : {}),
    });
    if (!id) continue;
    const push = await pushes(db, tpl, asset);
    log(
      `${label} ${tpl.username}: created from template ${tpl.name}${push ? '' : ', not pushed (the template does not push here)'}`,
    );
    if (push) toPush.add(id);
  }
  return toPush;
}

/** Fills the permissions' port: a saved permission with `%<template>` queues its accounts. */
export function registerTemplateAccounts(app: FastifyInstance): void {
  setTemplateAccounts(async (req, permId) => {
    const id = await queueTemplateAccounts(app, permId, { userId: req.user!.id, actor: actorOf(req) });
    if (id) await app.jobEngine.queued();
  });
}
