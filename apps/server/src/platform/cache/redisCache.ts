import { Redis } from 'ioredis';
import type { Cache } from './cache.ts';

/** The scale-out profile's cache, shared by every instance. Keys are namespaced with a prefix. */
export class RedisCache implements Cache {
  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Connects, failing fast with a clear message when Redis cannot be reached. */
  static async connect(url: string, prefix = 'gatehouse:'): Promise<RedisCache> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5000 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
    } catch (e) {
      redis.disconnect();
      throw new Error(`cannot reach Redis (${(e as Error).message})`);
    }
    return new RedisCache(redis, prefix);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.prefix + key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  }

  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    if (!keys.length) return [];
    const raw = await this.redis.mget(keys.map((k) => this.prefix + k));
    return raw.map((r) => (r === null ? undefined : (JSON.parse(r) as T)));
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, JSON.stringify(value), 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async incr(key: string, ttlSeconds: number, by = 1): Promise<number> {
    const k = this.prefix + key;
    const [[, n]] = (await this.redis.multi().incrby(k, by).expire(k, Math.ceil(ttlSeconds), 'NX').exec()) as [
      [null, number],
    ];
    return n;
  }

  async ttl(key: string): Promise<number | undefined> {
    const t = await this.redis.ttl(this.prefix + key);
    return t < 0 ? undefined : t;
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
