import type { FastifyInstance } from 'fastify';
import type { ResourceCtx } from '../../resource/types.ts';

/**
 * What other modules do when an organisation is born, renamed or removed (the assets module gives
 * it its root node). Modules above `orgs` register here at start-up, so `orgs` never imports them
 * (MODULE_ORDER in eslint.layers.js). Each runs inside the write's transaction (`ctx.db`).
 */
export interface OrgLifecycle {
  created?(ctx: ResourceCtx, orgId: string): Promise<void>;
  renamed?(ctx: ResourceCtx, orgId: string, name: string): Promise<void>;
  deleted?(ctx: ResourceCtx, orgIds: string[]): Promise<void>;
}

const listeners = new WeakMap<FastifyInstance, OrgLifecycle[]>();

export function onOrgLifecycle(app: FastifyInstance, listener: OrgLifecycle): void {
  listeners.set(app, [...(listeners.get(app) ?? []), listener]);
}

export function orgLifecycle(ctx: ResourceCtx): OrgLifecycle[] {
  return listeners.get(ctx.req.server) ?? [];
}
