import type { FastifyInstance } from 'fastify';
import { registerDef } from './registry.ts';
import { metadata } from './metadata.ts';
import { findVisible, listResponse } from './routes.ts';
import { serializeOne } from './serialize.ts';
import type { ResourceCtx, ResourceDef } from './types.ts';

/**
 * A resource that only the system writes (logs): list (with export), OPTIONS and, unless a module
 * serves it itself, the detail, under one permission. `resource` in the route config lets the API
 * description (modules/apidocs) describe these routes from the fields.
 */
export function registerReadOnly(
  app: FastifyInstance,
  def: ResourceDef,
  perm: string,
  opts: { detail?: boolean } = {},
): void {
  registerDef(def);
  const config = (action: 'metadata' | 'list' | 'retrieve') => ({ config: { perm, resource: { def, action } } });
  app.options(def.url, config('metadata'), async (req) => metadata(def, req.lang));
  app.get(def.url, config('list'), (req, reply) => listResponse(def, req, reply));
  if (opts.detail === false) return;
  app.get<{ Params: { id: string } }>(`${def.url}:id/`, config('retrieve'), async (req) => {
    const ctx: ResourceCtx = { req, db: req.db };
    return serializeOne(def, ctx, await findVisible(def, ctx, req.params.id));
  });
}
