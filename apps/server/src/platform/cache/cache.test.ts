import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cache } from './cache.ts';
import { MemoryCache } from './memoryCache.ts';
import { RedisCache } from './redisCache.ts';

/** The same behaviour from both profiles' caches; Redis runs when TEST_REDIS_URL names a real server. */
function cacheSuite(name: string, open: () => Promise<Cache>) {
  describe(name, () => {
    let cache: Cache;
    const prefix = `t${Date.now()}${Math.random().toString(36).slice(2)}:`;
    beforeAll(async () => {
      cache = await open();
    });
    afterAll(async () => cache.close());

    it('stores JSON values until they expire', async () => {
      await cache.set(`${prefix}a`, { n: 1, s: 'x' }, 1);
      expect(await cache.get(`${prefix}a`)).toEqual({ n: 1, s: 'x' });
      expect(await cache.ttl(`${prefix}a`)).toBeLessThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await cache.get(`${prefix}a`)).toBeUndefined();
    });

    it('reads several keys at once, in order, missing ones as undefined', async () => {
      await cache.set(`${prefix}m1`, 'one', 60);
      await cache.set(`${prefix}m3`, { three: 3 }, 60);
      expect(await cache.getMany([`${prefix}m1`, `${prefix}m2`, `${prefix}m3`])).toEqual([
        'one',
        undefined,
        { three: 3 },
      ]);
      expect(await cache.getMany([])).toEqual([]);
    });

    it('counts with incr and keeps the first TTL', async () => {
      expect(await cache.incr(`${prefix}c`, 60)).toBe(1);
      expect(await cache.incr(`${prefix}c`, 60)).toBe(2);
      expect(await cache.ttl(`${prefix}c`)).toBeGreaterThan(50);
      await cache.delete(`${prefix}c`);
      expect(await cache.get(`${prefix}c`)).toBeUndefined();
    });

    it('counts atomically: parallel increments each get their own value; a negative step gives one back', async () => {
      const values = await Promise.all(Array.from({ length: 100 }, () => cache.incr(`${prefix}p`, 60)));
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(await cache.incr(`${prefix}p`, 60, -1)).toBe(99);
      expect(await cache.incr(`${prefix}p`, 60, -1)).toBe(98);
    });
  });
}

cacheSuite('in-process cache', async () => new MemoryCache());
const redisUrl = process.env.TEST_REDIS_URL;
describe.runIf(redisUrl)('redis', () =>
  cacheSuite('Redis cache', () => RedisCache.connect(redisUrl!, 'gatehouse-test:')),
);
