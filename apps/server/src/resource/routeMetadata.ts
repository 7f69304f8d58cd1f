import type { FastifyInstance, FastifyRequest } from 'fastify';
import { metadata } from './metadata.ts';
import type { ResourceDef } from './types.ts';

/**
 * OPTIONS for hand-written routes: the original console asks `OPTIONS <url>` before drawing any
 * table or form, so every JSON GET route describes what it answers the way a declared resource
 * does (resource/metadata.ts). A route says what it serves with `config.describe` — a resource
 * declaration, a small one of its own (label and fields), or a function of the request (a settings
 * category) — and this registers its OPTIONS, with actions.GET and, when the same path takes them,
 * POST and PUT. `routeMetadata.test.ts` checks that no JSON GET route is left without one.
 */
export type Described = Pick<ResourceDef, 'label' | 'fields'> & { orgScoped?: boolean };
export type Describe = Described | ((req: FastifyRequest) => Described | Promise<Described>);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a hand-written GET route answers, for its OPTIONS (resource/routeMetadata.ts). */
    describe?: Describe;
  }
}

export function registerRouteMetadata(app: FastifyInstance): void {
  // Paths with an OPTIONS route already (declared resources register theirs before their GETs).
  const described = new Set<string>();
  app.addHook('onRoute', function (route) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('OPTIONS')) described.add(route.url);
    const config = route.config as { describe?: Describe; resource?: { def?: ResourceDef } } | undefined;
    // A route serving a declared resource (a read-only detail, an action) is described by it.
    const describe = config?.describe ?? config?.resource?.def;
    if (!describe || !methods.includes('GET') || described.has(route.url)) return;
    described.add(route.url);
    const url = route.url;
    this.options(url, async (req) => {
      const def = typeof describe === 'function' ? await describe(req) : describe;
      const meta = metadata({ ...def, orgScoped: Boolean(def.orgScoped) } as ResourceDef, req.lang);
      const actions = meta.actions as Record<string, unknown>;
      for (const m of ['POST', 'PUT'] as const)
        if (!app.hasRoute({ method: m, url }) && !app.hasRoute({ method: m === 'PUT' ? 'PATCH' : m, url }))
          delete actions[m];
      return { ...meta, renders: ['application/json'], parses: ['application/json'] };
    });
  });
}
