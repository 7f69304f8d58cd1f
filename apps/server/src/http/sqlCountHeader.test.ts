import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, SessionClient, type TestApp } from '../../test-support/testApp.ts';

/** `X-JMS-SQL-COUNT` only when the console asks for it (`X-JMS-SQL-DEBUG: 1`), and only to a superuser. */
let t: TestApp;
let admin: SessionClient;
let plain: SessionClient;
const ASK = { 'x-jms-sql-debug': '1' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
  const created = await admin.post('/api/v1/users/users/', {
    name: 'Plain',
    username: 'plain',
    email: 'plain@example.com',
    password_strategy: 'custom',
    password: 'Plain-pass1',
  });
  expect(created.statusCode, created.body).toBe(201);
  plain = new SessionClient(t.app);
  expect((await plain.login('plain', 'Plain-pass1')).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('the SQL count header', () => {
  it('is sent to a superuser who asks for it', async () => {
    const res = await admin.get('/api/v1/users/profile/', ASK);
    expect(Number(res.headers['x-jms-sql-count'])).toBeGreaterThan(0);
  });

  it('is not sent to a superuser who does not ask', async () => {
    const res = await admin.get('/api/v1/users/profile/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-jms-sql-count']).toBeUndefined();
  });

  it('is not sent to an ordinary user or an anonymous caller, even when asked', async () => {
    const mine = await plain.get('/api/v1/users/profile/', ASK);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['x-jms-sql-count']).toBeUndefined();
    const anon = await t.app.inject({ method: 'GET', url: '/api/health/', headers: ASK });
    expect(anon.headers['x-jms-sql-count']).toBeUndefined();
  });
});

describe('the SQL count header in debug mode', () => {
  let d: TestApp;
  beforeAll(async () => {
    d = await createTestApp({ GATEHOUSE_DEBUG: '1' });
  });
  afterAll(() => d.close());

  it('is sent to anyone who asks, and only then', async () => {
    const asked = await d.app.inject({ method: 'GET', url: '/api/health/', headers: ASK });
    expect(Number(asked.headers['x-jms-sql-count'])).toBeGreaterThan(0);
    const plainCall = await d.app.inject({ method: 'GET', url: '/api/health/' });
    expect(plainCall.headers['x-jms-sql-count']).toBeUndefined();
  });
});
