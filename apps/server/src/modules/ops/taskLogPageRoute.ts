import type { FastifyInstance } from 'fastify';

/**
 * `/core/ops/<type>/task/<id>/log/` (the console's task log page): the address
 * other pages open for a task log; it leads to the console's hidden task-log page, which signs the
 * user in first if needed.
 */
const TYPES = new Set(['celery', 'ansible', 'task']);

export function registerTaskLogPageRoute(app: FastifyInstance): void {
  app.get<{ Params: { type: string; id: string } }>(
    '/core/ops/:type/task/:id/log/',
    { config: { public: true } },
    async (req, reply) => {
      const { type, id } = req.params;
      if (!TYPES.has(type)) return reply.redirect('/ui/404');
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
      return reply.redirect(`/ui/ops/${type}/task/${encodeURIComponent(id)}/log/${query}`);
    },
  );
}
