import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ApiError } from '../../http/errors.ts';
import { f } from '../../resource/fields.ts';
import { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
import type { ResourceDef, Row } from '../../resource/types.ts';
import { actorOf } from '../../resource/audit.ts';
import { wakeAfter } from '../jobs/executions.ts';
import { AM, am } from './automationText.ts';
import {
  createAutomationExecution,
  parseJson,
  type AutomationRow,
  type AutomationType,
  type AutomationVersion,
} from './automationExecutions.ts';

/**
 * Executions (`change-secret-executions/`, `push-account-executions/`, `gather-account-executions/`,
 * contract §4.11): the engine's rows of that type, in the current org; GET list/detail and POST
 * `{automation}` → 201 `{task}` (the execution id, its task log's id). The snapshot never carries
 * the sealed secret. Records (`change-secret-records/`, `push-account-records/`): one per account.
 */
const E = 'ops_jobexecution';
const R = 'accounts_automationrecord';

export const TRIGGERS = [
  { value: 'manual', label: AM.trigger_manual },
  { value: 'timing', label: AM.trigger_timing },
];
const STATUSES = (['pending', 'running', 'success', 'failed', 'timeout'] as const).map((s) => ({
  value: s,
  label: AM[`status_${s}`],
}));

const KINDS: Record<
  AutomationType,
  { prefix: string; view: string; add: string; records?: { url: string; perm: string } }
> = {
  change_secret: {
    prefix: 'change-secret',
    view: 'accounts.view_changesecretexecution',
    add: 'accounts.add_changesecretexection',
    records: { url: 'change-secret-records', perm: 'accounts.view_changesecretrecord' },
  },
  push_account: {
    prefix: 'push-account',
    view: 'accounts.view_pushaccountexecution',
    add: 'accounts.add_pushaccountexecution',
    records: { url: 'push-account-records', perm: 'accounts.view_pushaccountexecution' },
  },
  gather_accounts: {
    prefix: 'gather-account',
    view: 'accounts.view_gatheraccountsexecution',
    add: 'accounts.add_gatheraccountsexecution',
  },
};

const timedelta = (a: unknown, b: unknown) =>
  a && b ? Math.max(0, (new Date(String(b)).getTime() - new Date(String(a)).getTime()) / 1000) : 0;

function executionDef(type: AutomationType): ResourceDef {
  return {
    model: `${type}execution`,
    app: 'accounts',
    url: `/api/v1/accounts/${KINDS[type].prefix}-executions/`,
    table: E,
    label: AM.model_execution,
    orgScoped: true,
    defaultOrder: ['-date_created'],
    fields: {
      id: f.id(),
      automation: f.computed('string', AM.f_automation, (r) => r.job_id),
      trigger: f.choice(AM.f_trigger, TRIGGERS, { readOnly: true, filter: true }),
      status: f.choice(AM.f_status, STATUSES, { readOnly: true, filter: true }),
      is_success: f.bool(AM.f_is_success, { readOnly: true }),
      date_start: f.datetime(AM.f_date_start, { readOnly: true, order: true }),
      date_finished: f.datetime(AM.f_date_finished, { readOnly: true, order: true }),
      date_created: f.dateCreated(),
      timedelta: f.computed('field', AM.f_timedelta, (r) => Number(r.time_cost)),
      summary: f.computed('json', AM.f_snapshot, (r) => parseJson(r.summary, {})),
      snapshot: f.computed('json', AM.f_snapshot, (r) => {
        const v = parseJson<Partial<AutomationVersion>>(r.job_version, {});
        return {
          type: v.type,
          name: v.name,
          comment: v.comment,
          accounts: v.accounts,
          node_amount: v.node_amount,
          asset_amount: v.asset_amount,
          type_display: v.type ? AM[`model_${v.type as AutomationType}`] : '',
        };
      }),
      created_by: f.createdBy(),
    },
    scope: (q) => q.where(sql.ref(`${E}.job_type`), '=', type),
    extraFilters: {
      automation_id: (q, value) => q.where(sql.ref(`${E}.job_id`), '=', value),
      automation__name: (q, value) =>
        q.where(sql.ref(`${E}.job_id`), 'in', sql`(select id from accounts_automation where name = ${value})`),
    },
  };
}

function recordDef(type: AutomationType, url: string): ResourceDef {
  return {
    model: `${type}record`,
    app: 'accounts',
    url: `/api/v1/accounts/${url}/`,
    table: R,
    label: type === 'change_secret' ? AM.model_change_secret_record : AM.model_push_record,
    orgScoped: true,
    defaultOrder: ['-date_started'],
    fields: {
      id: f.id(),
      asset: f.computed('json', AM.f_asset, (r) => ({ id: r.asset_id, name: r.asset_name })),
      account: f.computed('json', AM.f_account, (r) => ({
        id: r.account_id,
        name: r.account_name,
        username: r.username,
      })),
      execution: f.computed('json', AM.f_execution, (r) => ({ id: r.execution_id, name: r._automation ?? '' })),
      status: f.string(AM.f_status, { readOnly: true, filter: true }),
      state: f.string(AM.f_state, { readOnly: true, filter: true }),
      is_success: f.computed('boolean', AM.f_is_success, (r) => r.status === 'success'),
      error: f.text(AM.f_error, { readOnly: true }),
      date_started: f.datetime(AM.f_date_started, { readOnly: true, order: true }),
      date_finished: f.datetime(AM.f_date_finished, { readOnly: true, order: true }),
      timedelta: f.computed('field', AM.f_timedelta, (r) => timedelta(r.date_started, r.date_finished)),
      username: f.string(AM.f_username, { readOnly: true, search: true }),
      asset_name: f.string(AM.f_asset, { readOnly: true, search: true }),
    },
    scope: (q) => q.where(sql.ref(`${R}.type`), '=', type),
    extraFilters: {
      asset: (q, value) => q.where(sql.ref(`${R}.asset_id`), '=', value),
      asset_id: (q, value) => q.where(sql.ref(`${R}.asset_id`), '=', value),
      execution_id: (q, value) => q.where(sql.ref(`${R}.execution_id`), '=', value),
      automation_id: (q, value) => q.where(sql.ref(`${R}.automation_id`), '=', value),
    },
    async prepare(rows, ctx) {
      const ids = [...new Set(rows.map((r) => String(r.automation_id)))];
      if (!ids.length) return;
      const names = await ctx.db
        .selectFrom('accounts_automation')
        .select(['id', 'name'])
        .where('id', 'in', ids)
        .execute();
      const by = new Map(names.map((n) => [n.id, n.name]));
      for (const r of rows) r._automation = by.get(String(r.automation_id)) ?? '';
    },
  };
}

export function registerAutomationExecutionRoutes(app: FastifyInstance, type: AutomationType): void {
  const k = KINDS[type];
  const def = executionDef(type);
  registerReadOnly(app, def, k.view);
  if (k.records) registerReadOnly(app, recordDef(type, k.records.url), k.records.perm);
  app.post(def.url, { config: { perm: k.add } }, async (req, reply) => {
    const body = (req.body ?? {}) as { automation?: unknown };
    const id = typeof body.automation === 'string' ? body.automation : '';
    const a = (
      /^[0-9a-f-]{36}$/i.test(id)
        ? await req.db
            .selectFrom('accounts_automation')
            .selectAll()
            .where('id', '=', id)
            .where('type', '=', type)
            .where('org_id', '=', req.org.id)
            .executeTakeFirst()
        : undefined
    ) as AutomationRow | undefined;
    if (!a) throw new ApiError(400, { automation: [am(req.lang, 'automation_required')] });
    const task = await createAutomationExecution(req.db, app, a, {
      creatorId: req.user!.id,
      createdBy: actorOf(req),
      trigger: 'manual',
    });
    wakeAfter(req);
    return reply.code(201).send({ task } satisfies Row);
  });
}
