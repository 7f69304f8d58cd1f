import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminClient, createTestApp, type TestApp } from '../../../../test-support/testApp.ts';
import { ldapSettings, startSlapd, type Slapd } from '../../../../test-support/slapd.ts';

/** The periodic import (modules/ops/ldapPeriodic.ts) on the job scheduler, its minute shortened. */
let t: TestApp;
let slapd: Slapd;

beforeAll(async () => {
  slapd = await startSlapd({ bulk: 25 });
  t = await createTestApp({ JOB_MINUTE_MS: '200' });
  const admin = await adminClient(t.app);
  // Off until the test turns it on.
  const res = await admin.patch(
    '/api/v1/settings/setting/?category=ldap',
    ldapSettings(slapd, { AUTH_LDAP: false, AUTH_LDAP_SYNC_CRONTAB: '* * * * *' }),
  );
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  slapd.stop();
});

const ldapUsers = async () =>
  Number(
    (
      await t.deps.database.db
        .selectFrom('users_user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('source', '=', 'ldap')
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('periodic LDAP import', () => {
  it('imports nobody while off, everyone into the sync orgs once AUTH_LDAP and the periodic switch are on', async () => {
    // Three ticks of the scheduler go by while off (each asks whether AUTH_LDAP is on), importing nobody.
    const asked = vi.spyOn(t.deps.settings, 'valueOf');
    const ticks = () => asked.mock.calls.filter(([name]) => name === 'AUTH_LDAP').length;
    await expect.poll(ticks, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(3);
    asked.mockRestore();
    expect(await ldapUsers()).toBe(0);
    await t.deps.settings.setMany({ AUTH_LDAP: true, AUTH_LDAP_SYNC_IS_PERIODIC: true }, 'ldap');
    await expect.poll(ldapUsers, { timeout: 10_000, interval: 100 }).toBe(25);
  });
});
