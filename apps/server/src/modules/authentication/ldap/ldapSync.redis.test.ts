import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE } from '@gatehouse/contract';
import { adminClient, createPeerApp, createTestApp, type TestApp } from '../../../../test-support/testApp.ts';
import { ldapSettings, startSlapd, type Slapd } from '../../../../test-support/slapd.ts';

/** Two instances on one Redis: a sync running on one is seen running by the other, and its list by both. */
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('the LDAP sync across instances (Redis)', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof createPeerApp>>;
  let slapd: Slapd;
  beforeAll(async () => {
    slapd = await startSlapd({ bulk: 700 });
    a = await createTestApp({ REDIS_URL: redisUrl! });
    b = await createPeerApp(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    slapd?.stop();
  });

  it('refuses a second sync on the other instance while one runs, then both read its list', async () => {
    const onA = await adminClient(a.app);
    const onB = await adminClient(b.app);
    const patched = await onA.patch(
      '/api/v1/settings/setting/?category=ldap',
      ldapSettings(slapd, { AUTH_LDAP: false, AUTH_LDAP_SEARCH_PAGED_SIZE: 100 }),
    );
    expect(patched.statusCode).toBe(200);
    const refresh = (c: typeof onA) =>
      c.get('/api/v1/settings/ldap/cache/refresh/', { 'x-csrftoken': c.jar.values.get(CSRF_COOKIE) ?? '' });
    // The lock as a running sync holds it, taken through instance A's cache.
    await a.deps.cache.set('ldap:sync:lock', 1, 60);
    expect((await refresh(onB)).statusCode).toBe(409);
    await a.deps.cache.delete('ldap:sync:lock');
    expect((await refresh(onA)).statusCode).toBe(200);
    const second = await refresh(onB);
    // The first sync may already be done (700 entries): refused only while it runs.
    if (second.statusCode === 409) expect(second.json().msg).toMatch(/running/);
    await expect
      .poll(async () => (await onB.get('/api/v1/settings/ldap/users/')).statusCode, { timeout: 60_000 })
      .toBe(200);
    expect((await onB.get('/api/v1/settings/ldap/users/')).json()).toHaveLength(700);
    expect((await onA.get('/api/v1/settings/ldap/users/')).json()).toHaveLength(700);
    // A busy machine pages the directory slowly: the wait is for the sync's end, not a time limit.
  }, 90_000);
});
