import type * as PasswordModule from '../../platform/crypto/password.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPeerApp, createTestApp, type TestApp } from '../../../test-support/testApp.ts';
import { createUser, USER_PASSWORD } from '../../../test-support/auth.ts';

/** Two instances sharing the database and Redis: together they check no more guesses than the lock allows. */
const checks = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../platform/crypto/password.ts', async (original) => {
  const real = await original<typeof PasswordModule>();
  return {
    ...real,
    verifyPassword: async (password: string, stored: string | null | undefined) => {
      checks.n += 1;
      return real.verifyPassword(password, stored);
    },
  };
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('the login lock across instances (Redis)', () => {
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

  it('checks at most SECURITY_LOGIN_LIMIT_COUNT of 100 guesses spread over two instances', async () => {
    const username = `race_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    await createUser(a, username);
    const limit = Number(await a.deps.settings.get('SECURITY_LOGIN_LIMIT_COUNT'));
    // An address of its own, so other runs sharing Redis do not touch its counters.
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    checks.n = 0;
    const guesses = Array.from({ length: 100 }, (_, i) =>
      (i % 2 ? a.app : b.app).inject({
        method: 'POST',
        url: '/api/v1/authentication/auth/',
        payload: { username, password: i === 99 ? USER_PASSWORD : `wrong-${i}` },
        remoteAddress: ip,
      }),
    );
    const answers = await Promise.all(guesses);
    expect(checks.n).toBeLessThanOrEqual(limit);
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(0);
  }, 60_000);
});
