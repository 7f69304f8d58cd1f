import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { f } from '../../resource/fields.ts';
import type { FieldDef, ResourceDef, Row } from '../../resource/types.ts';
import { actorOf } from '../../resource/audit.ts';
import { toBool } from '../../platform/db/schema.ts';
import { AM } from './automationText.ts';
import { parseJson, type AutomationType } from './automationExecutions.ts';
import { validateAutomation } from './automationValidate.ts';

/**
 * The automation plans of contract §4.11 (`change-secret-automations/`, `push-account-automations/`,
 * `gather-account-automations/`): one table (`accounts_automation`, `type` per route), org-scoped,
 * unique name per org and type. Secrets are write-only and sealed at validation
 * (automationValidate.ts); assets and nodes are link tables limited to the org's own.
 */
const T = 'accounts_automation';

const SECRET_TYPES = [
  { value: 'password', label: AM.type_password },
  { value: 'ssh_key', label: AM.type_ssh_key },
];
const STRATEGIES = [
  { value: 'specific', label: AM.strategy_specific },
  { value: 'random', label: AM.strategy_random },
];
const KEY_STRATEGIES = [
  { value: 'add', label: AM.key_add },
  { value: 'set', label: AM.key_set },
  { value: 'set_jms', label: AM.key_set_jms },
];

export const DEFAULT_RULES = { length: 16, lowercase: true, uppercase: true, digit: true, symbol: true };

/** `Cycle perform ( 24 h )`, `Regularly perform ( crontab )` or `-`, in the reader's language. */
export function periodicDisplay(r: Row, req: FastifyRequest): string {
  if (!toBool(r.is_periodic as number)) return '-';
  const crontab = String(r.crontab ?? '').trim();
  if (crontab) return AM.periodic_crontab[req.lang].replace('{crontab}', crontab);
  return AM.periodic_interval[req.lang].replace('{n}', String(r.interval));
}

const orgOwn =
  (table: string) =>
  (q: Parameters<NonNullable<FieldDef['m2m']>['choosable'] & object>[0], ctx: { req: FastifyRequest }) =>
    q.where(sql.ref(`${table}.org_id`), '=', ctx.req.org.id);

function commonFields(): Record<string, FieldDef> {
  return {
    id: f.id(),
    name: f.string(AM.f_name, { required: true, search: true, filter: true, order: true }),
    type: f.string(AM.f_type, { readOnly: true }),
    is_periodic: f.bool(AM.f_is_periodic, { default: true, filter: true }),
    interval: f.int(AM.f_interval, { default: 24 }),
    crontab: f.string(AM.f_crontab, { default: '' }),
    accounts: f.list(AM.f_accounts, { default: [] }),
    assets: f.m2m(
      AM.f_assets,
      {
        table: 'assets_asset',
        output: (r) => ({ id: r.id, name: r.name, address: r.address }),
        through: { table: 'accounts_automation_assets', left: 'automation_id', right: 'asset_id', hasId: true },
        choosable: orgOwn('assets_asset'),
      },
      { default: [] },
    ),
    nodes: f.m2m(
      AM.f_nodes,
      {
        table: 'assets_node',
        labelColumn: 'value',
        through: { table: 'accounts_automation_nodes', left: 'automation_id', right: 'node_id', hasId: true },
        choosable: orgOwn('assets_node'),
      },
      { default: [] },
    ),
    is_active: f.bool(AM.f_is_active, { default: true, filter: true }),
    comment: f.comment(),
    periodic_display: f.computed('string', AM.f_periodic_display, (r, ctx) => periodicDisplay(r, ctx.req)),
    executed_amount: f.computed('integer', AM.f_executed_amount, (r) => Number(r._executed ?? 0)),
    created_by: f.createdBy(),
    date_created: f.dateCreated(),
    date_updated: f.dateUpdated(),
  };
}

function secretFields(): Record<string, FieldDef> {
  return {
    secret_type: f.choice(AM.f_secret_type, SECRET_TYPES, { default: 'password', filter: true }),
    secret_strategy: f.choice(AM.f_secret_strategy, STRATEGIES, { default: 'specific', filter: true }),
    secret: f.text(AM.f_secret, { writeOnly: true, encrypted: true, default: null, noExport: true }),
    passphrase: f.text(AM.f_passphrase, { writeOnly: true, encrypted: true, default: null, noExport: true }),
    password_rules: f.json(AM.f_password_rules, { default: DEFAULT_RULES }),
    ssh_key_change_strategy: f.choice(AM.f_ssh_key_change_strategy, KEY_STRATEGIES, { default: 'add' }),
    params: f.json(AM.f_params, { default: {} }),
  };
}

const KINDS: Record<
  AutomationType,
  { url: string; model: string; label: ResourceDef['label']; extra: () => Record<string, FieldDef> }
> = {
  change_secret: {
    url: '/api/v1/accounts/change-secret-automations/',
    model: 'changesecretautomation',
    label: AM.model_change_secret,
    extra: () => ({ ...secretFields(), recipients: f.list(AM.f_recipients, { default: [] }) }),
  },
  push_account: {
    url: '/api/v1/accounts/push-account-automations/',
    model: 'pushaccountautomation',
    label: AM.model_push_account,
    extra: secretFields,
  },
  gather_accounts: {
    url: '/api/v1/accounts/gather-account-automations/',
    model: 'gatheraccountsautomation',
    label: AM.model_gather_accounts,
    extra: () => ({ is_sync_account: f.bool(AM.f_is_sync_account, { default: false }) }),
  },
};

export function automationResource(type: AutomationType): ResourceDef {
  const k = KINDS[type];
  return {
    model: k.model,
    app: 'accounts',
    url: k.url,
    table: T,
    label: k.label,
    orgScoped: true,
    defaultOrder: ['-date_updated'],
    fields: { ...commonFields(), ...k.extra() },
    fieldsMini: ['id', 'name'],
    scope: (q) => q.where(sql.ref(`${T}.type`), '=', type),
    extraFilters: {
      // The records pages filter plans by name too.
      asset_id: (q, value) =>
        q.where(
          sql.ref(`${T}.id`),
          'in',
          sql`(select automation_id from accounts_automation_assets where asset_id = ${value})`,
        ),
    },
    async prepare(rows, ctx) {
      const ids = rows.map((r) => String(r.id));
      if (!ids.length) return;
      const counts = await ctx.db
        .selectFrom('ops_jobexecution')
        .select((eb) => ['job_id', eb.fn.countAll<number>().as('n')])
        .where('job_id', 'in', ids)
        .groupBy('job_id')
        .execute();
      const by = new Map(counts.map((c) => [c.job_id, Number(c.n)]));
      for (const r of rows) r._executed = by.get(String(r.id)) ?? 0;
    },
    hooks: {
      validate: (data, ctx) => validateAutomation(type, data, ctx),
      beforeInsert(values, _data, ctx) {
        values.type = type;
        values.created_by = actorOf(ctx.req);
        values.password_rules ??= JSON.stringify(DEFAULT_RULES);
      },
    },
  };
}

export const listOf = (v: unknown): string[] => parseJson<unknown[]>(v, []).map(String);
