import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';

/**
 * Issue 36: every GET route that answers JSON answers OPTIONS too, with the resource framework's
 * shape (name, actions.GET with a type and label per field), so the original console can draw
 * any table or form it asks for. Routes that serve something other than a JSON list or object are
 * named here with what they serve.
 */
const NOT_JSON: Record<string, string> = {
  '/api/docs/openapi.json': 'the OpenAPI document itself',
  '/api/docs/': 'the browsable API page (HTML)',
  '/api/v1/users/users/:id/mfa/reset/': 'an action kept as a GET for old clients (http/routePerms.ts changesState)',
  '/api/v1/terminal/applets/:id/icon/': "an applet's icon (PNG)",
};

let t: TestApp;
let admin: SessionClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

function jsonGets(): string[] {
  const table = t.app.routeTable;
  const downloads = /\/download\/$|\/file\/$/;
  return [...new Set(table.filter((r) => r.method === 'GET' && !r.public).map((r) => r.url))]
    .filter((u) => u.startsWith('/api/') && !(u in NOT_JSON) && !downloads.test(u))
    .sort();
}

describe('OPTIONS on every JSON GET route', () => {
  it('is registered for each', () => {
    const options = new Set(t.app.routeTable.filter((r) => r.method === 'OPTIONS').map((r) => r.url));
    expect(jsonGets().filter((u) => !options.has(u))).toEqual([]);
  });

  it('answers with the fields it serves: a type and a label each, in the caller’s language', async () => {
    const bad: string[] = [];
    for (const url of jsonGets()) {
      const res = await admin.request({
        method: 'OPTIONS',
        url: url.replace(/:[a-z_]+/g, '00000000-0000-0000-0000-000000000000'),
      });
      const body = res.statusCode === 200 ? res.json() : undefined;
      const fields = Object.entries((body?.actions?.GET ?? {}) as Record<string, { type?: string; label?: string }>);
      if (!body?.name || !fields.length || fields.some(([, f]) => !f.type || !f.label))
        bad.push(`${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(bad).toEqual([]);
  }, 60_000);

  it('describes a settings category with the console’s labels, in the caller’s language', async () => {
    const res = await admin.request({
      method: 'OPTIONS',
      url: '/api/v1/settings/setting/?category=security_password',
      headers: { 'accept-language': 'zh-CN' },
    });
    const field = res.json().actions.GET.SECURITY_PASSWORD_MIN_LENGTH;
    expect(field).toMatchObject({ type: 'integer', label: '密码最小长度', min_value: 6, max_value: 30 });
    // The same path takes PUT and PATCH: the form's fields are offered for writing too.
    expect(res.json().actions.PUT.SECURITY_PASSWORD_MIN_LENGTH).toBeDefined();
  });

  it('offers only the methods a path takes, and answers no one who is not signed in', async () => {
    const list = (await admin.request({ method: 'OPTIONS', url: '/api/v1/perms/users/self/assets/' })).json();
    expect(Object.keys(list.actions)).toEqual(['GET']);
    expect(list.actions.GET.name.label).toBeTruthy();
    const profile = (await admin.request({ method: 'OPTIONS', url: '/api/v1/users/profile/' })).json();
    expect(Object.keys(profile.actions).sort()).toEqual(['GET', 'PUT']);
    const anonymous = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/perms/users/self/assets/' });
    expect(anonymous.statusCode).toBe(401);
  });
});
