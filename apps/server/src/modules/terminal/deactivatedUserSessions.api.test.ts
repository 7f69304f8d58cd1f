import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_ORG_ID } from '@gatehouse/contract';
import { adminClient, createTestApp, type SessionClient, type TestApp } from '../../../test-support/testApp.ts';
import { createUser } from '../../../test-support/auth.ts';
import { hostWithAccounts, openShell } from '../../../test-support/gateway.ts';
import { startShellSshd, type SshdWithUsers } from '../../../test-support/sshd.ts';
import { gatewayOf } from './gatewayInstance.ts';

/**
 * A user who may no longer sign in loses the sessions already open: at once when deactivated or
 * given a past expiry date in the console, and at the gateway's next heartbeat when the expiry
 * date passes by itself. New tokens were already refused; open terminals kept running.
 */
let t: TestApp;
let admin: SessionClient;
let sshd: SshdWithUsers;
let host: Awaited<ReturnType<typeof hostWithAccounts>>;

beforeAll(async () => {
  sshd = await startShellSshd();
  t = await createTestApp();
  admin = await adminClient(t.app);
  host = await hostWithAccounts(admin, sshd);
}, 30_000);
afterAll(async () => {
  sshd?.stop();
  await t?.close();
});

async function sessionOf(username: string) {
  const id = await createUser(t, username);
  const { s, term } = await openShell(t.app, {
    user: { id, name: `User ${username}`, username },
    assetId: host.host.id,
    accountId: host.password.id,
  });
  return { id, s, term };
}

const finished = async (sessionId: string) =>
  Boolean(
    (
      await t.deps.database.db
        .selectFrom('terminal_session')
        .select('is_finished')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow()
    ).is_finished,
  );

describe('sessions of a user who may no longer sign in', () => {
  it('end when the user is deactivated in the console', async () => {
    const { id, s, term } = await sessionOf('deact-1');
    const other = await sessionOf('deact-2');
    expect(
      (
        await admin.request({
          method: 'PATCH',
          url: `/api/v1/users/users/${id}/`,
          payload: { is_active: false },
          headers: { 'x-jms-org': ROOT_ORG_ID },
        })
      ).statusCode,
    ).toBe(200);
    await term.waitEnd();
    await expect.poll(() => finished(s.id)).toBe(true);
    expect(await finished(other.s.id)).toBe(false);
    await other.term.type(['exit\r']);
    await other.term.waitEnd();
  });

  it('end when the expiry date has passed, at the gateway’s next heartbeat', async () => {
    const { id, s, term } = await sessionOf('expiring');
    await t.deps.database.db
      .updateTable('users_user')
      .set({ date_expired: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    await gatewayOf(t.app).heartbeat();
    await term.waitEnd();
    await expect.poll(() => finished(s.id)).toBe(true);
  });
});
