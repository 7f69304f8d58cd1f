import type { Cache } from './cache.ts';
import { MemoryCache } from './memoryCache.ts';
import { RedisCache } from './redisCache.ts';

export type { Cache } from './cache.ts';
export { MemoryCache } from './memoryCache.ts';

/** Redis when `redisUrl` is set (keys under `prefix`), else in-process. */
export async function openCache(redisUrl: string | undefined, prefix: string): Promise<Cache> {
  return redisUrl ? RedisCache.connect(redisUrl, prefix) : new MemoryCache();
}
