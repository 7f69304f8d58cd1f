import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@gatehouse/contract';
import {
  adminClient,
  createPeerApp,
  createTestApp,
  SessionClient,
  type TestApp,
} from '../../../test-support/testApp.ts';
import { USER_PASSWORD, createUser } from '../../../test-support/auth.ts';
import { listenOnLoopback, openSiteMsgSocket } from '../../../test-support/siteMsgSocket.ts';

/** Two instances sharing the database and Redis: a message sent on one reaches a socket on the other. */
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('site-message counts across instances (Redis bus)', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof createPeerApp>>;
  beforeAll(async () => {
    a = await createTestApp({ REDIS_URL: redisUrl! });
    b = await createPeerApp(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('pushes the new count to a socket connected to the other instance', async () => {
    const userId = await createUser(a, `bus_${Date.now()}`);
    const username = (
      await a.deps.database.db
        .selectFrom('users_user')
        .select('username')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).username;
    const onB = new SessionClient(b.app);
    expect((await onB.login(username, USER_PASSWORD)).json().ok).toBe(true);
    const ws = await openSiteMsgSocket(await listenOnLoopback(b.app), {
      cookie: `${SESSION_COOKIE}=${onB.jar.values.get(SESSION_COOKIE)}`,
    });
    try {
      expect(await ws.next()).toEqual({ type: 'unread_count', unread_count: 0 });
      const adminOnA = await adminClient(a.app);
      expect(
        (
          await adminOnA.post('/api/v1/notifications/site-messages/send/', {
            subject: 'Across',
            message: 'hi',
            user_ids: [userId],
          })
        ).statusCode,
      ).toBe(201);
      expect(await ws.next()).toEqual({ type: 'unread_count', unread_count: 1 });
    } finally {
      ws.close();
    }
  });
});
