import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { LANGUAGES, type Language } from '@gatehouse/contract';
import type { ExecutionHandler } from '../ops/engine/engine.ts';
import { orgRoot, recountOrg } from '../assets/nodeStore.ts';
import { accountContext } from './accountSecrets.ts';
import { cm } from './cloudMessages.ts';
import { CloudError } from './providers/provider.ts';
import { gatewayProbe, type GatewayProbe } from './providers/gatewayProbe.ts';
import { decide, type Strategy } from './strategy.ts';
import { writeInstance, type Action, type Target, type TaskPlan } from './instanceWriter.ts';
import { loadStrategies, parseList, parseProtocols } from './taskStore.ts';

/**
 * What a cloud sync execution does (the engine's handler for `job_type` `cloud_sync`, docs/cloud.md):
 * asks the account's provider for its regions (wrong credentials end here), checks the task's
 * regions against them, streams each region's instances through the strategies into assets
 * (instanceWriter.ts), one line and one record per instance, and only when every region was read
 * whole applies the release policy to the task's instances the provider no longer lists.
 */
export const CLOUD_JOB_TYPE = 'cloud_sync';

type Counts = Record<Action | 'released', number>;

export function cloudSyncHandler(app: FastifyInstance): ExecutionHandler {
  return async (exec, ctx) => {
    const db = app.deps.database.db;
    const user = await db
      .selectFrom('users_user')
      .select(['lang'])
      .where('id', '=', exec.creator_id)
      .executeTakeFirst();
    const lang: Language = (LANGUAGES as readonly string[]).includes(user?.lang ?? '')
      ? (user!.lang as Language)
      : 'en';
    const log = (line: string) => ctx.log.write(line).catch(() => undefined);
    const counts: Counts = { created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0, released: 0 };
    const task = await db.selectFrom('cloud_synctask').selectAll().where('id', '=', exec.job_id).executeTakeFirst();
    if (!task) return { status: 'failed', summary: { error: 'the task no longer exists' } };
    const record = (instance_id: string, name: string, address: string, action: string, reason: string) =>
      db
        .insertInto('cloud_syncrecord')
        .values({
          id: randomUUID(),
          execution_id: exec.id,
          task_id: task.id,
          instance_id: instance_id.slice(0, 128),
          name: name.slice(0, 128),
          address: address.slice(0, 767),
          action,
          reason,
          date_created: new Date().toISOString(),
        })
        .execute();
    let through: GatewayProbe | undefined;
    try {
      const {
        account,
        provider,
        ctx: pctx,
      } = await accountContext(db, app.deps.secretBox, task.account_id, ctx.signal);
      await log(`>>> ${task.name}: account ${account.name} (${account.provider})`);
      const domainId = typeof pctx.attrs.domain === 'string' ? pctx.attrs.domain : undefined;
      if (domainId) {
        const domain = await db
          .selectFrom('assets_domain')
          .select(['id', 'name'])
          .where('id', '=', domainId)
          .where('org_id', '=', account.org_id)
          .executeTakeFirst();
        if (!domain) throw new CloudError('lan_bad_domain', { domain: domainId });
        through = await gatewayProbe(db, app.deps.secretBox, domain, lang);
        pctx.probe = through.probe;
        await log(`>>> Through the gateway of the domain ${domain.name}`);
      }
      const known = await provider.regions(pctx);
      const wanted = parseList(task.regions);
      const regions = wanted.length ? wanted : known;
      const unknown = regions.find((r) => !known.includes(r));
      if (unknown) throw new CloudError('unknown_region', { region: unknown });
      const strategies: Strategy[] = await loadStrategies(db, parseList(task.strategies), task.org_id);
      const root = await orgRoot({ db }, task.org_id);
      const taskNodes = parseList(task.nodes);
      const plan: TaskPlan = {
        taskId: task.id,
        orgId: task.org_id,
        executionId: exec.id,
        hostnameStrategy: task.hostname_strategy,
        createdBy: exec.created_by || 'cloud sync',
        lang,
        ...(domainId ? { domainId } : {}),
      };
      const platforms = await platformResolver(app, task.platform_id);
      // A strategy's node must be a node of the task's org (its id is whatever was saved).
      const orgNodes = new Map<string, boolean>();
      const inOrg = async (ids: string[]) => {
        const out: string[] = [];
        for (const id of ids) {
          if (!orgNodes.has(id))
            orgNodes.set(
              id,
              Boolean(
                await db
                  .selectFrom('assets_node')
                  .select('id')
                  .where('id', '=', id)
                  .where('org_id', '=', task.org_id)
                  .executeTakeFirst(),
              ),
            );
          if (orgNodes.get(id)) out.push(id);
        }
        return out;
      };
      for (const region of regions) {
        await log(`>>> Region ${region}`);
        for await (const inst of provider.instances(pctx, region)) {
          if (ctx.signal.aborted) throw new Error('Stopped');
          const d = decide(inst, strategies);
          const platform = await platforms(d.platform);
          const nodeIds = await inOrg([...new Set([...d.nodes, ...taskNodes])]);
          const target: Target = {
            platformId: platform.id,
            protocols: d.protocols.length
              ? d.protocols
              : parseProtocols(task.protocols).length
                ? parseProtocols(task.protocols)
                : platform.protocols,
            nodeIds: nodeIds.length ? nodeIds : [root.id],
            labels: d.labels,
          };
          let r;
          try {
            r = await writeInstance(db, plan, inst, target, d);
          } catch (e) {
            r = { action: 'failed' as const, name: inst.name, reason: (e as Error).message };
          }
          counts[r.action] += 1;
          await record(inst.instance_id, r.name, inst.address, r.action, r.reason);
          await log(`[${r.name}(${inst.address})] ${r.action}${r.reason ? `: ${r.reason}` : ''}`);
        }
      }
      counts.released = await release(app, task, exec.id, record, log);
      await recountOrg({ db, dialect: app.deps.database.dialect }, task.org_id);
      await db
        .updateTable('cloud_synctask')
        .set({ date_last_sync: new Date().toISOString() })
        .where('id', '=', task.id)
        .execute();
    } catch (e) {
      const message = e instanceof CloudError ? cm(lang, e.key, e.params) : (e as Error).message;
      await log(`!!! ${message}`);
      await recountOrg({ db, dialect: app.deps.database.dialect }, task.org_id).catch(() => undefined);
      return { status: 'failed', summary: { ...counts, error: message } };
    } finally {
      through?.close();
    }
    await log('>>> Summary');
    for (const [k, n] of Object.entries(counts)) await log(`${k}: ${n}`);
    return { status: counts.failed ? 'failed' : 'success', summary: counts };
  };
}

/** Platforms by the strategy's value (an id or a name) or the task's, each a host platform; the builtin Linux otherwise. */
async function platformResolver(app: FastifyInstance, taskPlatform: number | null) {
  const db = app.deps.database.db;
  const cache = new Map<string, { id: number; protocols: { name: string; port: number }[] }>();
  const load = async (key: string) => {
    const q = db.selectFrom('assets_platform').select(['id']).where('category', '=', 'host');
    const row = /^\d+$/.test(key)
      ? await q.where('id', '=', Number(key)).executeTakeFirst()
      : await q.where('name', '=', key).executeTakeFirst();
    if (!row) return undefined;
    const protos = await db
      .selectFrom('assets_platformprotocol')
      .selectAll()
      .where('platform_id', '=', row.id)
      .orderBy('position')
      .execute();
    const chosen = protos.filter((p) => p.primary || p.required || p.default);
    return {
      id: row.id,
      protocols: (chosen.length ? chosen : protos.slice(0, 1)).map((p) => ({ name: p.name, port: Number(p.port) })),
    };
  };
  const get = async (key: string) => {
    if (!cache.has(key)) {
      const v = await load(key);
      if (v) cache.set(key, v);
    }
    return cache.get(key);
  };
  return async (wanted?: string) =>
    (wanted ? await get(wanted) : undefined) ??
    (taskPlatform ? await get(String(taskPlatform)) : undefined) ??
    (await get('Linux'))!;
}

/** The task's instances this run did not see, by its release policy; each page of 500 in one transaction. */
async function release(
  app: FastifyInstance,
  task: { id: string; release_policy: string },
  executionId: string,
  record: (id: string, name: string, address: string, action: string, reason: string) => Promise<unknown>,
  log: (line: string) => Promise<unknown>,
): Promise<number> {
  const db = app.deps.database.db;
  let n = 0;
  for (;;) {
    const gone = await db
      .selectFrom('cloud_syncinstance')
      .selectAll()
      .where('task_id', '=', task.id)
      .where('status', '=', 'present')
      .where('last_execution_id', '!=', executionId)
      .limit(500)
      .execute();
    if (!gone.length) return n;
    await db.transaction().execute(async (tx) => {
      const assets = gone.map((g) => g.asset_id).filter((a): a is string => Boolean(a));
      if (assets.length && task.release_policy === 'remove')
        await tx.deleteFrom('assets_asset').where('id', 'in', assets).execute();
      if (assets.length && task.release_policy === 'disable')
        await tx.updateTable('assets_asset').set({ is_active: false }).where('id', 'in', assets).execute();
      await tx
        .updateTable('cloud_syncinstance')
        .set({
          status: 'released',
          last_execution_id: executionId,
          ...(task.release_policy === 'remove' ? { asset_id: null } : {}),
        })
        .where(
          'id',
          'in',
          gone.map((g) => g.id),
        )
        .execute();
    });
    for (const g of gone) {
      n += 1;
      await record(g.instance_id, g.name, g.address, 'released', task.release_policy);
      await log(`[${g.name}(${g.address})] released: ${task.release_policy}`);
    }
  }
}
