import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/** Org root nodes from the org's birth, nodes created by path (`full_value`) and searched by path. */
let t: TestApp;
let admin: SessionClient;
const N = '/api/v1/assets/nodes/';
const O = '/api/v1/orgs/orgs/';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers

const nodes = async (org?: string, query = '') =>
  (await admin.get(`${N}?order=key${query}`, org ? { 'x-jms-org': org } : {})).json() as Row[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('org root nodes', () => {
  it('exist from the org’s creation, named after it, and follow its renames down the tree', async () => {
    expect((await nodes()).map((n) => [n.key, n.value])).toEqual([['1', 'DEFAULT']]);
    const org = (await admin.post(O, { name: 'Ops Team' })).json();
    const root = (await nodes(org.id))[0]!;
    expect(root).toMatchObject({ value: 'Ops Team', full_value: '/Ops Team', org_id: org.id });
    expect(Number(root.key)).toBeGreaterThan(1);
    const other = (await admin.post(O, { name: 'Another' })).json();
    expect((await nodes(other.id))[0]!.key).not.toBe(root.key);

    const leaf = await admin.post(N, { full_value: 'a/b' }, { 'x-jms-org': org.id });
    expect(leaf.json().full_value).toBe('/Ops Team/a/b');
    expect((await admin.request({ method: 'PATCH', url: `${O}${org.id}/`, payload: { name: 'Ops' } })).statusCode).toBe(
      200,
    );
    expect((await nodes(org.id)).map((n) => n.full_value)).toEqual(['/Ops', '/Ops/a', '/Ops/a/b']);
    // The org list does not count its root node, and an org holding only its root can be deleted (root and all).
    const listed = (await admin.get(`${O}${other.id}/`)).json();
    expect(listed.resource_statistics.nodes_amount).toBe(0);
    expect((await admin.request({ method: 'DELETE', url: `${O}${other.id}/` })).statusCode).toBe(204);
    const left = await t.deps.database.db
      .selectFrom('assets_node')
      .select('id')
      .where('org_id', '=', other.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('nodes by path', () => {
  it('creates the missing ancestors and answers 201 with the leaf; the org name may lead the path', async () => {
    const res = await admin.post(N, { full_value: 'p/q/r' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ value: 'r', name: 'r', full_value: '/DEFAULT/p/q/r' });
    const p = (await nodes(undefined, '&value=p'))[0]!;
    expect(res.json().key.startsWith(`${p.key}:`)).toBe(true);
    // Existing ancestors are reused; a leading org name (any case, with or without /) is dropped.
    const s = await admin.post(N, { full_value: '/Default/p/q/s' });
    expect(s.json().full_value).toBe('/DEFAULT/p/q/s');
    expect((await admin.post(N, { full_value: 'DEFAULT/p/t' })).json().full_value).toBe('/DEFAULT/p/t');
    expect((await nodes(undefined, '&value=q')).length).toBe(1);
  });

  it('refuses a path that exists, names nothing or is too long, and asks for value or full_value', async () => {
    await admin.post(N, { full_value: 'dup/x' });
    const again = await admin.post(N, { full_value: '/DEFAULT/dup/x' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ full_value: ['A node with this path already exists'] });
    expect((await admin.post(N, { full_value: '/DEFAULT/' })).json()).toEqual({
      full_value: ['Give the node a value (its name) or a full_value (its path)'],
    });
    expect((await admin.post(N, { full_value: `a/${'x'.repeat(129)}` })).json().full_value[0]).toMatch(/128/);
    const deep = Array.from({ length: 31 }, (_, i) => `d${i}`).join('/');
    expect((await admin.post(N, { full_value: deep })).json()).toEqual({
      full_value: ['A path may have at most 30 names below the organization'],
    });
    const deepest = await admin.post(N, { full_value: Array.from({ length: 30 }, (_, i) => `d${i}`).join('/') });
    expect(deepest.statusCode).toBe(201);
    const none = await admin.post(N, {}, { cookie: `${admin.jar.header()}; django_language=ja` });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ value: ['ノードの value（名前）または full_value（パス）を指定してください'] });
    // value alone still creates at the root.
    expect((await admin.post(N, { value: 'top' })).json().full_value).toBe('/DEFAULT/top');
  });

  it('refuses a full_value change on update instead of ignoring it, and accepts the unchanged echo', async () => {
    const n = (await admin.post(N, { full_value: 'mv/me' })).json();
    const patch = (payload: object) => admin.request({ method: 'PATCH', url: `${N}${n.id}/`, payload });
    expect((await patch({ full_value: '/DEFAULT/elsewhere/me' })).statusCode).toBe(400);
    const echo = await patch({ full_value: n.full_value, value: 'me2' });
    expect(echo.statusCode).toBe(200);
    expect(echo.json().full_value).toBe('/DEFAULT/mv/me2');
  });

  it('searches on full_value: a path finds its node and the nodes below it', async () => {
    await admin.post(N, { full_value: 'srch/alpha/beta' });
    await admin.post(N, { full_value: 'srch/alphabet' });
    const found = async (term: string) =>
      (await nodes(undefined, `&search=${encodeURIComponent(term)}`)).map((n) => n.full_value);
    expect(await found('Default/srch/alpha/b')).toEqual(['/DEFAULT/srch/alpha/beta']);
    expect(await found('srch/alpha')).toEqual([
      '/DEFAULT/srch/alpha',
      '/DEFAULT/srch/alpha/beta',
      '/DEFAULT/srch/alphabet',
    ]);
    expect(await found('srch/alpha/')).toEqual(['/DEFAULT/srch/alpha/beta']);
    expect(await found('BETA')).toEqual(['/DEFAULT/srch/alpha/beta']);
    expect(await found('alpha/beta nothing')).toEqual([]);
    // Another org's nodes are never found from here.
    const org = (await admin.post(O, { name: 'Searchers' })).json();
    await admin.post(N, { full_value: 'srch/alpha' }, { 'x-jms-org': org.id });
    expect(await found('srch/alpha/')).toEqual(['/DEFAULT/srch/alpha/beta']);
    expect((await nodes(org.id, '&search=srch')).map((n) => n.full_value)).toEqual([
      '/Searchers/srch',
      '/Searchers/srch/alpha',
    ]);
  });
});
