import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Language } from '@gatehouse/contract';
import { buildOpenApi, collectRoute, type CollectedRoute } from './openapiDocument.ts';

/**
 * The API describes itself: `GET /api/docs/openapi.json` (OpenAPI 3.1) and a browsable page at
 * `/api/docs/` (static HTML, CSS and JS from ./page, no inline script, so it works under a strict
 * Content-Security-Policy). The page is public: it holds nothing but code. The document is for
 * signed-in users: the route list is no secret in an open-source product, but anonymous scanners
 * get no map of what this instance runs.
 */
export const DOCS_PATH = '/api/docs/';
export const OPENAPI_PATH = `${DOCS_PATH}openapi.json`;

const page = (file: string) => fs.readFileSync(new URL(`./page/${file}`, import.meta.url), 'utf8');

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the API docs module, as the OpenAPI document lists them. */
    apiRoutes: CollectedRoute[];
  }
}

/** Must be called before any other module registers routes: it collects them as they come. */
export function registerApiDocs(app: FastifyInstance): void {
  const routes: CollectedRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    routes.push(...collectRoute(route));
  });
  // Routes are fixed once the server is ready: one document per language, built on first use.
  const built = new Map<Language, string>();
  const files = { html: page('index.html'), js: page('docs.js'), css: page('docs.css') };
  const pub = { config: { public: true } };

  app.get('/api/docs', pub, async (_req, reply) => reply.redirect(DOCS_PATH));
  app.get(DOCS_PATH, pub, async (_req, reply) =>
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(files.html),
  );
  app.get(`${DOCS_PATH}docs.js`, pub, async (_req, reply) =>
    reply.header('Cache-Control', 'no-cache').type('text/javascript; charset=utf-8').send(files.js),
  );
  app.get(`${DOCS_PATH}docs.css`, pub, async (_req, reply) =>
    reply.header('Cache-Control', 'no-cache').type('text/css; charset=utf-8').send(files.css),
  );
  // '*': any signed-in user (IsAuthenticated), checked by the authorization matrix like any permission.
  app.get(OPENAPI_PATH, { config: { perm: '*' } }, async (req, reply) => {
    let doc = built.get(req.lang);
    if (!doc) {
      doc = JSON.stringify(buildOpenApi(routes, req.lang));
      built.set(req.lang, doc);
    }
    return reply.type('application/json; charset=utf-8').send(doc);
  });
}
