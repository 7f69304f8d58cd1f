import { sql } from 'kysely';
import { f } from '../../resource/fields.ts';
import type { ResourceDef, Row } from '../../resource/types.ts';
import { TM as M } from './gateway/gatewayError.ts';
import type { FastifyInstance } from 'fastify';
import { staleMs } from './gateway/instance.ts';

/**
 * The built-in gateway of each running instance (`/api/v1/terminal/terminals/`), one row per
 * instance kept by its heartbeat: alive while heard from within three of the deployment's
 * heartbeats (`GATEWAY_HEARTBEAT_MS`, the bound that ends a dead instance's sessions), the load from the
 * CPU load average and memory use (the original's thresholds), the sessions it holds now.
 * System-wide (`terminal.*_terminal` are system-only permissions); read-only.
 */
/** How long an instance may be silent and still count as alive, on this deployment. */
export function staleOf(app: FastifyInstance): number {
  return staleMs(app.deps.config.gateway.heartbeatMs);
}

export function alive(r: Row, stale: number): boolean {
  return Date.now() - Date.parse(String(r.last_seen)) < stale;
}

export function loadOf(r: Row, stale: number): Load {
  if (!alive(r, stale)) return 'offline';
  const cpu = Number(r.cpu_load);
  const mem = Number(r.memory_used);
  const disk = Number(r.disk_used);
  if (cpu > 20 || mem > 95 || disk > 99) return 'critical';
  if (cpu > 5 || mem > 85 || disk > 80) return 'high';
  return 'normal';
}

export type Load = 'critical' | 'high' | 'normal' | 'offline';

export const terminalResource: ResourceDef = {
  model: 'terminal',
  app: 'terminal',
  url: '/api/v1/terminal/terminals/',
  table: 'terminal_terminal',
  label: M.model_terminal,
  orgScoped: false,
  defaultOrder: ['name'],
  fields: {
    id: f.id(),
    name: f.string(M.field_name, {
      readOnly: true,
      search: true,
      order: true,
      filter: (q, value) =>
        q.where('terminal_terminal.name' as never, 'like', `%${value.replace(/[%_\\]/g, '\\$&')}%` as never),
    }),
    type: f.string(M.field_type, { readOnly: true, filter: true }),
    remote_addr: f.string(M.field_remote_addr, { readOnly: true, filter: true }),
    session_online: f.int(M.field_session_online, { readOnly: true }),
    command_storage: f.computed('string', M.field_command_storage, () => 'default'),
    replay_storage: f.computed('string', M.field_replay_storage, () => 'default'),
    is_active: f.computed('boolean', M.field_is_active, () => true),
    is_alive: f.computed('boolean', M.field_is_alive, (r, ctx) => alive(r, staleOf(ctx.req.server))),
    date_created: f.datetime(M.field_date_created, { readOnly: true, order: true }),
    comment: f.text(M.field_comment, { readOnly: true }),
    load: f.computed('labeled_choice', M.field_load, (r, ctx) => {
      const v = loadOf(r, staleOf(ctx.req.server));
      return { value: v, label: M[`load_${v as Load}`][ctx.req.lang] };
    }),
    stat: f.computed('json', M.field_stat, (r) => ({
      id: r.id,
      cpu_load: Number(r.cpu_load),
      memory_used: Number(r.memory_used),
      disk_used: Number(r.disk_used),
      session_online: Number(r.session_online),
      date_created: r.last_seen,
      terminal: r.id,
    })),
  },
  extraFilters: {
    load: (q, value, ctx) => {
      const stale = new Date(Date.now() - staleOf(ctx.req.server)).toISOString();
      const tt = 'terminal_terminal';
      const ref = (c: string) => sql.ref(`${tt}.${c}`);
      const critical = sql<boolean>`(${ref('cpu_load')} > 20 or ${ref('memory_used')} > 95 or ${ref('disk_used')} > 99)`;
      const high = sql<boolean>`(${ref('cpu_load')} > 5 or ${ref('memory_used')} > 85 or ${ref('disk_used')} > 80)`;
      if (value === 'offline') return q.where(ref('last_seen'), '<', stale);
      q = q.where(ref('last_seen'), '>=', stale);
      if (value === 'critical') return q.where(critical);
      if (value === 'high') return q.where(sql<boolean>`not ${critical}`).where(high);
      if (value === 'normal') return q.where(sql<boolean>`not ${critical}`).where(sql<boolean>`not ${high}`);
      return q.where(sql.lit(false));
    },
  },
};
