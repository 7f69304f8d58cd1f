import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SessionClient, type TestApp } from '../../../../test-support/testApp.ts';
import { insertTestConnectionToken, signedInUser } from '../../../../test-support/profile.ts';

/** Connection tokens in the profile: the caller's own live tokens, expire, and reuse behind its setting. */
let t: TestApp;
let henry: { id: string; client: SessionClient };
let ivy: { id: string; client: SessionClient };
const CT = '/api/v1/authentication/connection-token/';

beforeAll(async () => {
  t = await createTestApp();
  henry = await signedInUser(t, 'henry');
  ivy = await signedInUser(t, 'ivy');
});
afterAll(async () => t.close());

describe('connection tokens', () => {
  it('lists the caller own live tokens with the contract fields, never the input secret', async () => {
    const token = await insertTestConnectionToken(t, henry.id, { userDisplay: 'henry', inputSecret: 'S3cret!' });
    await insertTestConnectionToken(t, henry.id, { ttlSeconds: -10 });
    await insertTestConnectionToken(t, ivy.id);
    const list = (await henry.client.get(CT)).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: token.id,
      value: token.value,
      user: { id: henry.id, name: 'henry' },
      account: 'root',
      protocol: 'ssh',
      is_reusable: false,
      is_expired: false,
      org_name: 'DEFAULT',
      connect_options: { file_name_conflict_resolution: 'replace' },
    });
    expect(list[0].expire_time).toBeGreaterThan(290);
    expect(list[0].expire_time).toBeLessThanOrEqual(300);
    expect(JSON.stringify(list[0])).not.toContain('S3cret');
    const paged = (await henry.client.get(`${CT}?limit=10`)).json();
    expect(paged.count).toBe(1);
  });

  it('expires a token, after which it is gone', async () => {
    const token = await insertTestConnectionToken(t, henry.id);
    expect((await henry.client.request({ method: 'PATCH', url: `${CT}${token.id}/expire/` })).statusCode).toBe(204);
    expect((await henry.client.get(`${CT}${token.id}/`)).statusCode).toBe(404);
    expect((await henry.client.get(CT)).json().map((r: { id: string }) => r.id)).not.toContain(token.id);
  });

  it('switches reuse only while CONNECTION_TOKEN_REUSABLE is on, and renews the lifetime', async () => {
    const token = await insertTestConnectionToken(t, henry.id);
    const url = `${CT}${token.id}/reuse/`;
    const off = await henry.client.request({ method: 'PATCH', url, payload: { is_reusable: true } });
    expect(off.statusCode).toBe(400);
    expect(off.json().detail).toBe('Reusable connection tokens are not enabled on this site.');
    await t.deps.settings.set('CONNECTION_TOKEN_REUSABLE', true);
    const on = await henry.client.request({ method: 'PATCH', url, payload: { is_reusable: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json().is_reusable).toBe(true);
    expect(Date.parse(on.json().date_expired) - Date.now()).toBeGreaterThan(29 * 86400_000);
    const back = await henry.client.request({ method: 'PATCH', url, payload: { is_reusable: false } });
    expect(Date.parse(back.json().date_expired) - Date.now()).toBeLessThanOrEqual(300_000);
    const bad = await henry.client.request({ method: 'PATCH', url, payload: { is_reusable: 'x' } });
    expect(bad.statusCode).toBe(400);
  });

  it('never shows, expires or changes another user token', async () => {
    const theirs = await insertTestConnectionToken(t, ivy.id);
    expect((await henry.client.get(`${CT}${theirs.id}/`)).statusCode).toBe(404);
    expect((await henry.client.request({ method: 'PATCH', url: `${CT}${theirs.id}/expire/` })).statusCode).toBe(404);
    expect(
      (await henry.client.request({ method: 'PATCH', url: `${CT}${theirs.id}/reuse/`, payload: { is_reusable: true } }))
        .statusCode,
    ).toBe(404);
    expect((await ivy.client.get(`${CT}${theirs.id}/`)).json().is_expired).toBe(false);
  });
});
