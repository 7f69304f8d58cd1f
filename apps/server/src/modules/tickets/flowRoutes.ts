import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_ORG_ID, type Language } from '@gatehouse/contract';
import { ApiError } from '../../http/errors.ts';
import { loadFlows, STRATEGIES, type Flow, type FlowRule, type Strategy } from './assignees.ts';
import { TICKET_TYPES, type TicketType } from './stateMachine.ts';
import { auditTicket } from './ticketAudit.ts';
import { km, M, type TicketMessageKey } from './ticketMessages.ts';
import { shape } from '../../resource/describe.ts';

/**
 * `tickets/flows/`: the approval flow per ticket type of the current org, the global org's where
 * the org has none. One flow per type and org; editing the global org's flow from another org
 * makes that org's own copy; flows are never deleted (405). `tickets.*_ticketflow`.
 */
const URL = '/api/v1/tickets/flows/';
type IdReq = FastifyRequest<{ Params: { id: string } }>;
const label = (lang: Language, key: string) => M[key as TicketMessageKey]?.[lang] ?? key;

async function displays(req: FastifyRequest, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await req.db
    .selectFrom('users_user')
    .select(['id', 'name', 'username'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.name}(${r.username})`]));
}

async function serialize(req: FastifyRequest, flows: Flow[]) {
  const names = await displays(
    req,
    flows.flatMap((f) => f.rules.flatMap((r) => r.assignees)),
  );
  const orgs = new Map(
    (await req.db.selectFrom('orgs_organization').select(['id', 'name']).execute()).map((o) => [o.id, o.name]),
  );
  return flows.map((f) => ({
    id: f.id,
    type: { value: f.type, label: label(req.lang, `type_${f.type}`) },
    approval_level: f.approval_level,
    created_by: f.created_by,
    date_created: f.date_created,
    date_updated: f.date_updated,
    org_id: f.org_id,
    org_name: f.org_id === ROOT_ORG_ID ? 'GLOBAL' : (orgs.get(f.org_id) ?? ''),
    rules: f.rules.map((r) => ({
      level: r.level,
      strategy: { value: r.strategy, label: label(req.lang, `strategy_${r.strategy}`) },
      assignees_read_only: r.strategy !== 'custom_user',
      assignees_display: r.assignees.map((id) => names.get(id) ?? id),
      assignees: r.assignees,
    })),
  }));
}

/** The flows the current org sees: its own, and the global org's for the types it has none of. */
async function visibleFlows(req: FastifyRequest): Promise<Flow[]> {
  const rows = await req.db
    .selectFrom('tickets_ticketflow')
    .select(['id', 'org_id', 'type'])
    .where('org_id', 'in', [req.org.id, ROOT_ORG_ID])
    .execute();
  const own = new Set(rows.filter((r) => r.org_id === req.org.id).map((r) => r.type));
  const ids = rows.filter((r) => r.org_id === req.org.id || !own.has(r.type)).map((r) => r.id);
  return (await loadFlows(req.db, ids)).sort((a, b) => a.type.localeCompare(b.type));
}

async function findFlow(req: IdReq): Promise<Flow> {
  const flow = (await visibleFlows(req)).find((f) => f.id === req.params.id);
  if (!flow) throw new ApiError(404, { detail: km(req.lang, 'flow_not_found') });
  return flow;
}

/** The body's level and rules (over `base` for a partial update), or field errors. */
async function parseFlow(
  req: FastifyRequest,
  base?: Flow,
): Promise<{ type: TicketType; level: number; rules: FlowRule[] }> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const errors: Record<string, unknown> = {};
  const type = (
    body.type === undefined
      ? base?.type
      : typeof body.type === 'object'
        ? (body.type as { value?: unknown })?.value
        : body.type
  ) as TicketType;
  if (!TICKET_TYPES.includes(type)) errors.type = [km(req.lang, 'flow_type_invalid')];
  const level = body.approval_level === undefined ? base?.approval_level : Number(body.approval_level);
  if (level !== 1 && level !== 2) errors.approval_level = [km(req.lang, 'flow_level_invalid')];
  let rules = base?.rules ?? [];
  if (body.rules !== undefined) {
    if (!Array.isArray(body.rules)) errors.rules = [km(req.lang, 'flow_rules_count')];
    else {
      const ruleErrors: Record<string, string[]>[] = [];
      rules = [];
      for (const [i, raw] of (body.rules as Record<string, unknown>[]).entries()) {
        const e: Record<string, string[]> = {};
        const s = raw && typeof raw.strategy === 'object' ? (raw.strategy as { value?: unknown }).value : raw?.strategy;
        if (!STRATEGIES.includes(s as Strategy))
          e.strategy = [km(req.lang, 'flow_strategy_invalid', { value: String(s) })];
        const list = Array.isArray(raw?.assignees)
          ? (raw.assignees as unknown[]).map((x) => (x && typeof x === 'object' ? (x as { id?: unknown }).id : x))
          : [];
        const assignees = [...new Set(list.filter((x): x is string => typeof x === 'string'))];
        if (s === 'custom_user') {
          if (!assignees.length) e.assignees = [km(req.lang, 'flow_assignees_required')];
          else {
            const found = await req.db.selectFrom('users_user').select('id').where('id', 'in', assignees).execute();
            const missing = assignees.find((id) => !found.some((f) => f.id === id));
            if (missing) e.assignees = [km(req.lang, 'flow_assignee_unknown', { id: missing })];
          }
        }
        ruleErrors.push(e);
        rules.push({ level: i + 1, strategy: s as Strategy, assignees: s === 'custom_user' ? assignees : [] });
      }
      if (ruleErrors.some((e) => Object.keys(e).length)) errors.rules = ruleErrors;
    }
  }
  if (!errors.rules && !errors.approval_level && rules.length < (level ?? 1))
    errors.rules = [km(req.lang, 'flow_rules_count')];
  if (Object.keys(errors).length) throw new ApiError(400, errors);
  return { type, level: level!, rules: rules.slice(0, level) };
}

async function save(
  req: FastifyRequest,
  id: string,
  orgId: string,
  p: Awaited<ReturnType<typeof parseFlow>>,
  create: boolean,
) {
  const now = new Date().toISOString();
  await req.db.transaction().execute(async (tx) => {
    if (create)
      await tx
        .insertInto('tickets_ticketflow')
        .values({
          id,
          type: p.type,
          approval_level: p.level,
          created_by: req.user!.username,
          date_created: now,
          date_updated: now,
          org_id: orgId,
        })
        .execute();
    else
      await tx
        .updateTable('tickets_ticketflow')
        .set({ approval_level: p.level, date_updated: now })
        .where('id', '=', id)
        .execute();
    await tx.deleteFrom('tickets_approvalrule').where('flow_id', '=', id).execute();
    await tx
      .insertInto('tickets_approvalrule')
      .values(
        p.rules.map((r) => ({
          id: randomUUID(),
          flow_id: id,
          level: r.level,
          strategy: r.strategy,
          assignees: JSON.stringify(r.assignees),
        })),
      )
      .execute();
  });
  await auditTicket(
    req.db,
    req,
    { id, title: p.type, org_id: orgId },
    create ? 'create' : 'update',
    [
      { field: 'approval_level', before: '', after: String(p.level) },
      { field: 'rules', before: '', after: p.rules.map((r) => `${r.level}:${r.strategy}`).join(', ') },
    ],
    'ticketflow',
  );
  const [one] = await serialize(req, await loadFlows(req.db, [id]));
  return one;
}

export function registerFlowRoutes(app: FastifyInstance): void {
  const flows = {
    config: {
      perm: 'tickets.view_ticketflow',
      describe: shape('ticket_flow', {
        id: 'string',
        type: 'labeled_choice',
        approval_level: 'integer',
        created_by: 'string',
        date_created: 'datetime',
        date_updated: 'datetime',
        rules: 'list',
      }),
    },
  };
  app.get(URL, flows, async (req) => {
    const type = (req.query as Record<string, string | undefined>).type;
    return serialize(
      req,
      (await visibleFlows(req)).filter((f) => !type || f.type === type),
    );
  });
  app.get(`${URL}:id/`, flows, async (req: IdReq) => (await serialize(req, [await findFlow(req)]))[0]);
  app.post(URL, { config: { perm: 'tickets.add_ticketflow' } }, async (req, reply) => {
    const p = await parseFlow(req);
    const exists = await req.db
      .selectFrom('tickets_ticketflow')
      .select('id')
      .where('org_id', '=', req.org.id)
      .where('type', '=', p.type)
      .executeTakeFirst();
    if (exists) throw new ApiError(400, { type: [km(req.lang, 'flow_exists')] });
    return reply.code(201).send(await save(req, randomUUID(), req.org.id, p, true));
  });
  const update = async (req: IdReq) => {
    const flow = await findFlow(req);
    const p = await parseFlow(req, flow);
    if (p.type !== flow.type) throw new ApiError(400, { type: [km(req.lang, 'flow_type_invalid')] });
    // The global org's flow edited from another org: that org gets its own copy.
    if (flow.org_id !== req.org.id) return save(req, randomUUID(), req.org.id, p, true);
    return save(req, flow.id, flow.org_id, p, false);
  };
  app.put(`${URL}:id/`, { config: { perm: 'tickets.change_ticketflow' } }, update);
  app.patch(`${URL}:id/`, { config: { perm: 'tickets.change_ticketflow' } }, update);
  app.delete(`${URL}:id/`, { config: { perm: 'tickets.delete_ticketflow' } }, async (req) => {
    throw new ApiError(405, { detail: km(req.lang, 'flow_delete') });
  });
}
