import type { Cache } from './cache.ts';
import { MemoryCache } from './memoryCache.ts';
import { RedisCache } from './redisCache.ts';

export type { Cache } from './cache.ts';
export { MemoryCache } from './memoryCache.ts';

export async function openCache(redisUrl: string | undefined): Promise<Cache> {
  return redisUrl ? RedisCache.connect(redisUrl) : new MemoryCache();
}
