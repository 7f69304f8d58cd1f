import type { FastifyInstance } from 'fastify';
import { registerDef } from '../../resource/registry.ts';
import { metadata } from '../../resource/metadata.ts';
import { findVisible, listResponse } from '../../resource/routes.ts';
import { serializeOne } from '../../resource/serialize.ts';
import type { ResourceCtx, ResourceDef } from '../../resource/types.ts';

/** A resource that only the gateway writes: list (with export), detail and OPTIONS, one permission. */
export function registerReadOnly(app: FastifyInstance, def: ResourceDef, perm: string): void {
  registerDef(def);
  const config = (action: 'metadata' | 'list' | 'retrieve') => ({ config: { perm, resource: { def, action } } });
  app.options(def.url, config('metadata'), async (req) => metadata(def, req.lang));
  app.get(def.url, config('list'), (req, reply) => listResponse(def, req, reply));
  app.get<{ Params: { id: string } }>(`${def.url}:id/`, config('retrieve'), async (req) => {
    const ctx: ResourceCtx = { req, db: req.db };
    return serializeOne(def, ctx, await findVisible(def, ctx, req.params.id));
  });
}
