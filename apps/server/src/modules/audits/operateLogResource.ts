import { sql } from 'kysely';
import { f } from '../../resource/fields.ts';
import { allLoggedModels, loggedModelOf } from '../../resource/registry.ts';
import type { ResourceDef } from '../../resource/types.ts';
import { AL } from './auditLogsText.ts';

/** The operate log's actions (the contract's list; the framework writes create, update, delete, view). */
export const OPERATE_ACTIONS = [
  'view',
  'update',
  'delete',
  'create',
  'download',
  'connect',
  'login',
  'change_password',
] as const;

/**
 * Models whose label, in any language, contains the term (or that are named by it): the
 * `resource_type` filter accepts what the list shows as well as the model name.
 */
function modelsNamed(term: string): string[] {
  const t = term.trim().toLowerCase();
  const out = new Set<string>([term]);
  for (const def of allLoggedModels())
    if (def.model === t || Object.values(def.label).some((l) => l.toLowerCase() === t)) out.add(def.model);
  return [...out];
}

/**
 * `operate-logs/` (read-only): every write of the resource framework (`resource/audit.ts`). Current
 * org only, every org in the global one. The detail route, with the diff, is `activityRoutes.ts`.
 */
export const operateLogResource: ResourceDef = {
  model: 'operatelog',
  app: 'audits',
  url: '/api/v1/audits/operate-logs/',
  table: 'audits_operatelog',
  label: AL.operate_log,
  orgScoped: true,
  defaultOrder: ['-datetime'],
  dateRangeField: 'datetime',
  fields: {
    id: f.id(),
    user: f.string(AL.user, { readOnly: true, search: true, filter: true }),
    action: f.choice(
      AL.action,
      OPERATE_ACTIONS.map((v) => ({ value: v, label: AL[v] })),
      { readOnly: true, filter: true },
    ),
    resource_type: f.string(AL.resource_type, {
      readOnly: true,
      out: (model, ctx) => loggedModelOf(String(model))?.label[ctx.req.lang] ?? String(model ?? ''),
      filter: (q, value) => q.where(sql.ref('audits_operatelog.resource_type'), 'in', modelsNamed(value)),
    }),
    resource: f.string(AL.resource, { readOnly: true, search: true, filter: true }),
    remote_addr: f.string(AL.remote_addr, { readOnly: true, filter: true }),
    datetime: f.datetime(AL.datetime, { readOnly: true, order: true }),
  },
};
