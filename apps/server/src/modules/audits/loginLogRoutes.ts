import type { FastifyInstance } from 'fastify';
import { registerDef } from '../../resource/registry.ts';
import { metadata } from '../../resource/metadata.ts';
import { findVisible, listResponse } from '../../resource/routes.ts';
import { serializeOne } from '../../resource/serialize.ts';
import type { AnyQuery, ResourceCtx, ResourceDef } from '../../resource/types.ts';
import { loginLogResource } from './loginLogResource.ts';

/**
 * Read-only routes of the login logs: `login-logs/` (audits.view_userloginlog, org members) and
 * `my-login-logs/` (the caller's own attempts, any signed-in user), each with list, detail,
 * OPTIONS and CSV/XLSX export, as the framework's list.
 */
const ownScope = (def: ResourceDef): ResourceDef => ({
  ...def,
  url: '/api/v1/audits/my-login-logs/',
  scope: (q: AnyQuery, ctx: ResourceCtx) =>
    q.where('audits_userloginlog.username' as never, '=', (ctx.req.user?.username ?? '') as never),
});

function registerReadOnly(app: FastifyInstance, def: ResourceDef, perm: string): void {
  // `resource` lets the API description (modules/apidocs) describe these routes from the fields.
  const config = (action: 'metadata' | 'list' | 'retrieve') => ({ config: { perm, resource: { def, action } } });
  app.options(def.url, config('metadata'), async (req) => metadata(def, req.lang));
  app.get(def.url, config('list'), (req, reply) => listResponse(def, req, reply));
  app.get<{ Params: { id: string } }>(`${def.url}:id/`, config('retrieve'), async (req) => {
    const ctx: ResourceCtx = { req, db: req.db };
    return serializeOne(def, ctx, await findVisible(def, ctx, req.params.id));
  });
}

export function registerLoginLogRoutes(app: FastifyInstance): void {
  registerDef(loginLogResource);
  registerReadOnly(app, loginLogResource, 'audits.view_userloginlog');
  // '*': any signed-in user (IsAuthenticated); the scope narrows to their own rows.
  registerReadOnly(app, ownScope(loginLogResource), '*');
}
