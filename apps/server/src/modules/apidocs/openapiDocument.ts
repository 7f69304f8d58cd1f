import type { RouteOptions } from 'fastify';
import { PRODUCT_NAME, PRODUCT_VERSION, SESSION_COOKIE, type Language } from '@gatehouse/contract';
import { resourceOperation, resourceSchemas, type Schema } from '../../resource/openapi.ts';
import type { ResourceRoute } from '../../resource/routes.ts';
import type { ResourceDef } from '../../resource/types.ts';

/**
 * The whole API as an OpenAPI 3.1 document, built from the routes Fastify registered (collected by
 * an onRoute hook, so a route cannot be left out): resource routes get their operation from the
 * field declarations (resource/openapi.ts), every other route its method, path, path parameters,
 * a summary and the permission it declares (http/routePerms.ts). Nothing in it comes from the
 * database or the settings: it is the same for every instance of one version.
 */

export interface CollectedRoute {
  method: string;
  url: string;
  perm?: string | string[];
  public: boolean;
  websocket: boolean;
  resource?: ResourceRoute;
  schema?: { summary?: string; description?: string; tags?: string[] };
}

export function collectRoute(route: RouteOptions): CollectedRoute[] {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const config = (route.config ?? {}) as {
    perm?: string | string[];
    public?: boolean;
    resource?: ResourceRoute;
  };
  return methods.map((method) => ({
    method: method.toUpperCase(),
    url: route.url,
    ...(config.perm !== undefined ? { perm: config.perm } : {}),
    public: Boolean(config.public),
    websocket: Boolean((route as { websocket?: boolean }).websocket),
    ...(config.resource ? { resource: config.resource } : {}),
    ...(route.schema ? { schema: route.schema as CollectedRoute['schema'] } : {}),
  }));
}

/** Fastify's `/a/:id/` and `/ui/*` as OpenAPI paths, with the names of their parameters. */
export function openapiPath(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url
    .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_m, name: string) => {
      params.push(name);
      return `{${name}}`;
    })
    .replace(/\*$/, () => {
      params.push('wildcard');
      return '{wildcard}';
    });
  return { path, params };
}

/** Routes as the document lists them: HEAD only where it is not Fastify's automatic twin of a GET. */
export function documentedRoutes(routes: readonly CollectedRoute[]): CollectedRoute[] {
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  return routes.filter((r) => !(r.method === 'HEAD' && gets.has(r.url)));
}

function pascal(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
}

/** A component name per resource: its model, or its URL where two resources share a model. */
function schemaNames(routes: readonly CollectedRoute[]): Map<ResourceDef, string> {
  const names = new Map<ResourceDef, string>();
  const taken = new Set<string>();
  for (const r of routes) {
    const def = r.resource?.def;
    if (!def || names.has(def)) continue;
    let name = pascal(def.model);
    if (taken.has(name)) name = pascal(def.url.replace(/^\/api\/v\d+\//, ''));
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    names.set(def, name);
  }
  return names;
}

function tagOf(url: string): string {
  const api = /^\/api\/v\d+\/([^/]+)\//.exec(url);
  if (api) return api[1]!;
  if (url.startsWith('/api/')) return url.split('/')[2] || 'api';
  return url.split('/')[1] || 'pages';
}

function summaryOf(r: CollectedRoute): string {
  const rest = r.url
    .replace(/^\/api\/v\d+\/[^/]+\//, '')
    .replace(/^\//, '')
    .replace(/\/$/, '');
  return `${r.method} ${rest || r.url}${r.websocket ? ' (WebSocket)' : ''}`;
}

function permText(perm: string | string[]): string {
  return Array.isArray(perm) ? perm.join(' and ') : perm;
}

const ERRORS = {
  ValidationError: {
    description: 'Bad input: field errors `{field: [message]}` in the caller’s language, or `{detail, code}`.',
    content: {
      'application/json': {
        schema: { type: ['object', 'array'], additionalProperties: true },
      },
    },
  },
  NotAuthenticated: {
    description: 'Not signed in.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } },
  },
  PermissionDenied: {
    description: 'Signed in, without the permission in this organisation.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } },
  },
  NotFound: {
    description: 'No such object visible here.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } },
  },
};

export function buildOpenApi(routes: readonly CollectedRoute[], lang: Language): Schema {
  const listed = documentedRoutes(routes);
  const names = schemaNames(listed);
  const schemas: Record<string, Schema> = {
    Detail: { type: 'object', properties: { detail: { type: 'string' }, code: { type: 'string' } } },
  };
  for (const [def, name] of names) Object.assign(schemas, resourceSchemas(def, name, lang));
  const paths: Record<string, Record<string, Schema>> = {};
  const tags = new Set<string>();
  for (const r of listed) {
    const { path, params } = openapiPath(r.url);
    const tag = tagOf(r.url);
    tags.add(tag);
    const base: Schema = r.resource
      ? resourceOperation(r.resource, names.get(r.resource.def)!, lang)
      : { summary: r.schema?.summary ?? summaryOf(r), responses: { default: { description: 'See the module.' } } };
    const op: Schema = {
      ...base,
      operationId: `${r.method.toLowerCase()}:${r.url}`,
      tags: r.schema?.tags ?? [tag],
    };
    const notes = [r.schema?.description, r.websocket ? 'Upgrades to a WebSocket.' : undefined];
    if (r.perm !== undefined) {
      op['x-permission'] = r.perm;
      notes.push(
        r.perm === '*'
          ? 'For any signed-in user.'
          : `Requires the permission ${permText(r.perm)} in the request's organisation (X-JMS-ORG).`,
      );
    }
    const description = notes.filter(Boolean).join('\n\n');
    if (description) op.description = description;
    const pathParams = params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (pathParams.length) op.parameters = [...pathParams, ...((base.parameters as Schema[] | undefined) ?? [])];
    const anonymous = r.public || !r.url.startsWith('/api/');
    if (anonymous) op.security = [];
    else {
      op.responses = { ...op.responses, 401: { $ref: '#/components/responses/NotAuthenticated' } };
      if (r.perm !== undefined)
        op.responses = { ...op.responses, 403: { $ref: '#/components/responses/PermissionDenied' } };
    }
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${PRODUCT_NAME} API`,
      version: PRODUCT_VERSION,
      description:
        'Generated from the routes the server registers and the resource declarations. Lists take ' +
        '`search`, `order`, `limit`/`offset` and the filters each names; messages follow the ' +
        '`django_language` cookie or Accept-Language.',
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas,
      responses: ERRORS,
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'Console session (unsafe methods also need X-CSRFToken).',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'Token from POST /api/v1/authentication/auth/.' },
      },
    },
    security: [{ session: [] }, { bearer: [] }],
  };
}
