import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_ID, LOGIN_PATH } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../test-support/testApp.ts';

/**
 * Bounds on what one caller makes the server hold (issue 11 item 9): body sizes (smaller before
 * sign-in), spm entries, id lists in relation fields and list filters, slow headers. Each is set
 * from the environment and each refusal is a 4xx that names the bound.
 */
let t: TestApp;
let admin: SessionClient;
const ORG = { 'x-jms-org': DEFAULT_ORG_ID };

beforeAll(async () => {
  t = await createTestApp({
    LIMIT_BODY_BYTES: String(1024 * 1024),
    LIMIT_ANONYMOUS_BODY_BYTES: '4096',
    LIMIT_SPM_IDS: '5',
    LIMIT_RELATION_IDS: '2000',
    HTTP_HEADERS_TIMEOUT_MS: '300',
  });
  admin = await adminClient(t.app);
});
afterAll(() => t.close());

describe('body size', () => {
  it('is smaller for an anonymous caller: a large sign-in body is refused with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: LOGIN_PATH,
      payload: { username: 'x', password: 'y'.repeat(5000) },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: '请求体大于 4 KB。', code: 'body_too_large' });
  });

  it('counts a chunked anonymous body that declares no length', async () => {
    const { Readable } = await import('node:stream');
    const res = await t.app.inject({
      method: 'POST',
      url: LOGIN_PATH,
      payload: Readable.from([Buffer.from(`{"username":"x","password":"${'y'.repeat(8000)}"}`)]),
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    expect(res.statusCode).toBe(413);
  });

  it('allows a signed-in caller more, up to LIMIT_BODY_BYTES', async () => {
    const within = await admin.post('/api/v1/common/resources/cache/', { resources: [], pad: 'p'.repeat(100_000) });
    expect(within.statusCode).toBe(200);
    const over = await admin.post('/api/v1/common/resources/cache/', { resources: [], pad: 'p'.repeat(1_100_000) });
    expect(over.statusCode).toBe(413);
    expect(over.json().detail).toBe('The request body is larger than 1024 KB.');
  });
});

describe('spm entries', () => {
  it('hold at most LIMIT_SPM_IDS ids', async () => {
    const ok = await admin.post('/api/v1/common/resources/cache/', { resources: ['a', 'b', 'c', 'd', 'e'] });
    expect(ok.statusCode).toBe(200);
    const over = await admin.post('/api/v1/common/resources/cache/', { resources: ['a', 'b', 'c', 'd', 'e', 'f'] });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ resources: ['At most 5 ids can be given at once.'] });
  });
});

describe('id lists', () => {
  let user: string;
  let groups: string[];
  beforeAll(async () => {
    const created = await admin.post(
      '/api/v1/users/users/',
      {
        name: 'Bound',
        username: 'bound',
        email: 'bound@example.com',
        password_strategy: 'custom',
        password: 'Bound-pass1',
      },
      ORG,
    );
    expect(created.statusCode, created.body).toBe(201);
    user = created.json().id;
    const now = new Date().toISOString();
    groups = Array.from({ length: 1200 }, () => randomUUID());
    for (let i = 0; i < groups.length; i += 200)
      await t.deps.database.db
        .insertInto('users_usergroup')
        .values(
          groups.slice(i, i + 200).map((id, j) => ({
            id,
            name: `g${i + j}`,
            comment: '',
            org_id: DEFAULT_ORG_ID,
            created_by: 'test',
            updated_by: 'test',
            date_created: now,
            date_updated: now,
          })),
        )
        .execute();
  });

  it('in a relation field: more than LIMIT_RELATION_IDS is a 400 naming the bound, not a 500', async () => {
    const many = Array.from({ length: 20_000 }, () => randomUUID());
    const res = await admin.request({
      method: 'PATCH',
      url: `/api/v1/users/users/${user}/`,
      payload: { groups: many },
      headers: ORG,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ groups: ['At most 2000 ids can be given at once.'] });
  });

  it('in a relation field: a long legitimate list is checked and linked in chunks', async () => {
    const res = await admin.request({
      method: 'PATCH',
      url: `/api/v1/users/users/${user}/`,
      payload: { groups },
      headers: ORG,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const links = await t.deps.database.db
      .selectFrom('users_user_groups')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', user)
      .executeTakeFirstOrThrow();
    expect(Number(links.n)).toBe(1200);
  });

  it.each([
    ['POST', 'accounts/accounts/username-suggestions/', 'assets'],
    ['POST', 'accounts/accounts/username-suggestions/', 'nodes'],
    ['POST', 'accounts/accounts/bulk/', 'assets'],
    ['PATCH', 'accounts/accounts/clear-secret/', 'account_ids'],
  ])(
    'in a body list of %s %s: more than LIMIT_RELATION_IDS ids in %s is a 400, not a 500',
    async (method, route, field) => {
      const many = Array.from({ length: 5000 }, () => randomUUID());
      const res = await admin.request({ method, url: `/api/v1/${route}`, payload: { [field]: many }, headers: ORG });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ [field]: ['At most 2000 ids can be given at once.'] });
    },
  );

  it('in a list filter: more than LIMIT_RELATION_IDS ids is a 400', async () => {
    const ids = Array.from({ length: 2001 }, () => randomUUID()).join(',');
    const res = await admin.get(`/api/v1/users/users/?ids=${ids}`, ORG);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ ids: ['At most 2000 ids can be given at once.'] });
  });
});

describe('slow clients', () => {
  it(
    'a client that never finishes its headers is cut off after HTTP_HEADERS_TIMEOUT_MS',
    { timeout: 60_000 },
    async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as AddressInfo).port;
      const started = performance.now();
      const answer = await new Promise<string>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => s.write('GET /api/health/ HTTP/1.1\r\nHost: x\r\n'));
        let got = '';
        s.on('data', (d) => (got += String(d)));
        s.on('close', () => resolve(got));
      });
      expect(answer).toMatch(/^HTTP\/1.1 408/);
      expect(performance.now() - started).toBeLessThan(10_000);
    },
  );
});
