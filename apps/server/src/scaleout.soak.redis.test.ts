import { expect, it } from 'vitest';
import { TEST_DB } from '../test-support/testApp.ts';
import { runSoak } from '../../../bench/soak/soak.ts';

/**
 * Issue 33's soak, short (bench/soak/soak.ts; `npm run soak` is the full one): two instances in
 * child processes with data folders of their own behind Debian's HAProxy, on this run's PostgreSQL
 * and Redis with an S3 store (s3rver); a few seconds of the HTTP mix with web and native SSH
 * terminals typing against a real sshd, `kill -9` of one instance halfway. Held: no HTTP error but
 * the requests in flight at the kill, every answered command recorded once, no answered write lost,
 * the survivor's sessions ended with their recordings. Times are printed, never held (a busy
 * 2-core machine).
 */
const redisUrl = process.env.TEST_REDIS_URL;

it.runIf(redisUrl && TEST_DB === 'postgres')(
  'two instances behind HAProxy lose nothing when one is killed under load',
  async () => {
    const report = await runSoak({
      seconds: 8,
      killAtMs: 4000,
      rate: 15,
      webSessions: 3,
      sshSessions: 2,
      throughputMs: 0,
      log: (l) => process.stdout.write(`soak: ${l}\n`),
    });
    expect(report.failures).toEqual([]);
    expect(report.counts.otherErrors).toBe(0);
    expect(report.counts.commandsAcked).toBeGreaterThan(0);
    expect(report.counts.commandsLost).toBe(0);
    expect(report.counts.lostWrites).toBe(0);
    expect(report.counts.victimSessions).toBeGreaterThan(0);
  },
  240_000,
);
