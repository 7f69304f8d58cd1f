import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';

/**
 * Fields the contract does not know are ignored (a newer client keeps working); an empty value of a
 * relation loses nothing.
 */
let t: TestApp;
let admin: SessionClient;
const H = '/api/v1/assets/hosts/';
const host = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  address: '10.1.1.1',
  platform: 'Linux',
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await adminClient(t.app);
});
afterAll(async () => t.close());

describe('fields a resource does not declare', () => {
  it('accepts an empty value (nothing lost) and ignores fields unknown to the contract', async () => {
    expect((await admin.post(H, host('empty-accounts', { accounts: [] }))).statusCode).toBe(201);
    expect((await admin.post(H, host('null-accounts', { accounts: null }))).statusCode).toBe(201);
    const newer = await admin.post(H, host('newer-client', { some_future_field: { x: 1 } }));
    expect(newer.statusCode).toBe(201);
    expect(newer.json()).not.toHaveProperty('some_future_field');
  });
});
