import { f, L } from '../../resource/fields.ts';
import type { ResourceCtx, ResourceDef, Row } from '../../resource/types.ts';
import { isCronError, parseCrontab } from '../ops/engine/cron.ts';
import { CM, cm } from './cloudMessages.ts';
import { parseProtocol } from './strategy.ts';
import { parseList } from './taskStore.ts';

/**
 * Sync-instance tasks (`/api/v1/xpack/cloud/sync-instance-tasks/`, console reference §3.12): the
 * account (of the org), regions (checked against the provider at each run: an unknown one fails
 * the run with its name), target nodes, hostname strategy, protocols (`name/port`) and platform
 * used when no strategy decides, strategies, what happens to released instances, and the
 * schedule (crontab wins over interval, as the job centre's). Runs: taskRoutes.ts.
 */
const MAX_LIST = 100;
type Errors = Record<string, string[]>;

async function checkTask(data: Row, ctx: ResourceCtx & { before?: Row }): Promise<Errors | undefined> {
  const lang = ctx.req.lang;
  const org = String(ctx.before?.org_id ?? ctx.req.org.id);
  const errors: Errors = {};
  const list = (k: string) =>
    data[k] === undefined
      ? undefined
      : Array.isArray(data[k])
        ? (data[k] as unknown[]).map(String)
        : parseList(String(data[k]));
  for (const k of ['regions', 'nodes', 'strategies', 'protocols'])
    if ((list(k)?.length ?? 0) > MAX_LIST) errors[k] = [cm(lang, 'bad_interval')];
  const nodes = list('nodes');
  if (nodes?.length) {
    const found = await ctx.db
      .selectFrom('assets_node')
      .select('id')
      .where('org_id', '=', org)
      .where('id', 'in', nodes)
      .execute();
    const missing = nodes.find((n) => !found.some((x) => x.id === n));
    if (missing) errors.nodes = [cm(lang, 'bad_node', { value: missing })];
  }
  const strategies = list('strategies');
  if (strategies?.length) {
    const found = await ctx.db
      .selectFrom('cloud_strategy')
      .select('id')
      .where('org_id', '=', org)
      .where('id', 'in', strategies)
      .execute();
    const missing = strategies.find((n) => !found.some((x) => x.id === n));
    if (missing) errors.strategies = [cm(lang, 'bad_strategy', { value: missing })];
  }
  if (data.protocols !== undefined) {
    const given = typeof data.protocols === 'string' ? (JSON.parse(data.protocols) as unknown) : data.protocols;
    const raw = Array.isArray(given) ? (given as unknown[]) : [given];
    const parsed = raw.map((p) =>
      typeof p === 'string'
        ? parseProtocol(p)
        : p && typeof p === 'object'
          ? parseProtocol(`${(p as Row).name}/${(p as Row).port}`)
          : undefined,
    );
    const bad = parsed.findIndex((p) => !p);
    if (bad >= 0) errors.protocols = [cm(lang, 'bad_protocol', { value: JSON.stringify(raw[bad]) })];
    else data.protocols = JSON.stringify(parsed);
  }
  if (data.platform !== undefined && data.platform !== null) {
    const p = await ctx.db
      .selectFrom('assets_platform')
      .select('category')
      .where('id', '=', Number(data.platform))
      .executeTakeFirst();
    if (p?.category !== 'host') errors.platform = [cm(lang, 'bad_platform')];
  }
  const crontab = String(data.crontab ?? ctx.before?.crontab ?? '');
  if (crontab.trim()) {
    const c = parseCrontab(crontab);
    if (isCronError(c)) errors.crontab = [cm(lang, 'bad_crontab', { detail: crontab })];
  }
  const interval = Number(data.interval ?? ctx.before?.interval ?? 24);
  if (!(interval >= 1 && interval <= 8760)) errors.interval = [cm(lang, 'bad_interval')];
  return Object.keys(errors).length ? errors : undefined;
}

export const taskResource: ResourceDef = {
  model: 'syncinstancetask',
  app: 'xpack',
  url: '/api/v1/xpack/cloud/sync-instance-tasks/',
  table: 'cloud_synctask',
  label: CM.model_task,
  orgScoped: true,
  defaultOrder: ['-date_created'],
  fieldsMini: ['id', 'name'],
  fields: {
    id: f.id(),
    name: f.string(L.name, { required: true, search: true, order: true }),
    account: f.fk(
      CM.f_account,
      { table: 'cloud_account', choosable: (q, ctx) => q.where('org_id', '=', ctx.req.org.id) },
      { required: true, filter: true },
    ),
    regions: f.list(CM.f_regions, { default: [] }),
    nodes: f.list(CM.f_nodes, { default: [] }),
    hostname_strategy: f.choice(
      CM.f_hostname_strategy,
      [
        { value: 'instance_name', label: CM.hostname_instance_name },
        { value: 'ip', label: CM.hostname_ip },
      ],
      { default: 'instance_name' },
    ),
    protocols: f.json(CM.f_protocols, {
      default: [],
      out: (v) => (Array.isArray(v) ? v : JSON.parse(String(v ?? '[]'))),
    }),
    platform: f.fk(CM.f_platform, { table: 'assets_platform' }, { default: null }),
    strategies: f.list(CM.f_strategies, { default: [] }),
    release_policy: f.choice(
      CM.f_release_policy,
      [
        { value: 'remove', label: CM.release_remove },
        { value: 'disable', label: CM.release_disable },
        { value: 'keep', label: CM.release_keep },
      ],
      { default: 'keep' },
    ),
    is_periodic: f.bool(CM.f_is_periodic, { default: false, filter: true }),
    interval: f.int(CM.f_interval, { default: 24 }),
    crontab: f.string(CM.f_crontab, { default: '' }),
    date_last_sync: f.datetime(CM.f_date_last_sync, { readOnly: true, order: true }),
    comment: f.comment(),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  },
  hooks: {
    validate: checkTask,
    beforeInsert(values, _data, ctx) {
      values.creator_id = ctx.req.user!.id;
    },
  },
};
