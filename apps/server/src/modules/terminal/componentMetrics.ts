import type { FastifyInstance } from 'fastify';
import { shape } from '../../resource/describe.ts';
import { alive, loadOf, staleOf, type Load } from './terminalResource.ts';

/**
 * Settings › Terminal › Monitor: `GET terminal/components/metrics/` (`terminal.view_terminal`), per
 * component type (here every instance's built-in gateway, type `gatehouse`) the counts by load
 * (the terminals list's thresholds), the sessions running, and each instance's CPU load, memory and
 * disk use (of the data directory's file system) from its last heartbeat (gateway/instance.ts).
 */
export function registerComponentMetrics(app: FastifyInstance): void {
  app.get(
    '/api/v1/terminal/components/metrics/',
    {
      config: {
        perm: 'terminal.view_terminal',
        describe: shape('component_metrics', {
          total: 'integer',
          normal: 'integer',
          high: 'integer',
          critical: 'integer',
          offline: 'integer',
          session_active: 'integer',
          instances: 'list',
        }),
      },
    },
    async (req) => {
      const rows = await req.db.selectFrom('terminal_terminal').selectAll().orderBy('name').execute();
      const stale = staleOf(app);
      const out: Record<string, Record<Load | 'total' | 'session_active', number> & { instances: unknown[] }> = {};
      for (const r of rows) {
        const m = (out[r.type] ??= {
          total: 0,
          normal: 0,
          high: 0,
          critical: 0,
          offline: 0,
          session_active: 0,
          instances: [],
        });
        const load = loadOf(r, stale);
        const up = alive(r, stale);
        m.total++;
        m[load]++;
        if (up) m.session_active += Number(r.session_online);
        m.instances.push({
          id: r.id,
          name: r.name,
          remote_addr: r.remote_addr,
          is_alive: up,
          load,
          cpu_load: Number(r.cpu_load),
          memory_used: Number(r.memory_used),
          disk_used: Number(r.disk_used),
          session_online: up ? Number(r.session_online) : 0,
          date_last_seen: r.last_seen,
        });
      }
      return out;
    },
  );
}
