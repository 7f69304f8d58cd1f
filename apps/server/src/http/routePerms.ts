import type { FastifyInstance } from 'fastify';
import { requirePerm } from './permissions.ts';

/**
 * Route-level permissions: an API route declares `config: { perm }` (`app.action_model`, a list
 * that must all hold, or `a | b` for any of); one hook enforces it in the request's organisation
 * after the caller is identified. The route table keeps every API route with its permission, so
 * tests can check each one (the authorisation matrix).
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    perm?: string | string[];
    /**
     * A GET kept for old clients although it changes state (the contract's `mfa/reset/`): a session
     * request needs the CSRF header on it as on unsafe methods (http/identify.ts). New routes
     * change state only on unsafe methods.
     */
    changesState?: boolean;
  }
  interface FastifyInstance {
    routeTable: RouteRecord[];
  }
}

export interface RouteRecord {
  method: string;
  url: string;
  perm: string | string[] | undefined;
  public: boolean;
  changesState: boolean;
}

export function registerRoutePerms(app: FastifyInstance): void {
  const table: RouteRecord[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as { perm?: string | string[]; public?: boolean; changesState?: boolean };
    for (const method of methods)
      if (method !== 'HEAD')
        table.push({
          method,
          url: route.url,
          perm: config.perm,
          public: Boolean(config.public),
          changesState: Boolean(config.changesState),
        });
  });
  app.addHook('preHandler', async (req) => {
    const perm = req.routeOptions.config?.perm;
    if (perm !== undefined && req.method !== 'OPTIONS') await requirePerm(req, perm);
  });
}
