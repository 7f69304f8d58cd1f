import type { FastifyInstance } from 'fastify';
import { registerReadOnly } from '../../resource/readOnlyRoutes.ts';
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

export function registerLoginLogRoutes(app: FastifyInstance): void {
  // '*': any signed-in user (IsAuthenticated); the scope narrows to their own rows. Registered
  // first so that the model name keeps naming the full list (`defOf('userloginlog')`).
  registerReadOnly(app, ownScope(loginLogResource), '*');
  registerReadOnly(app, loginLogResource, 'audits.view_userloginlog');
}
