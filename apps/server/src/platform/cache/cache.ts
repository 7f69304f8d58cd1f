/**
 * The cache (docs/architecture.md, "Runtime and build"): login-failure counters, bearer tokens, spm ids, confirm TTLs.
 * In-process on the embedded profile, Redis when REDIS_URL is set. Values are JSON.
 */
export interface Cache {
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Several keys in one round trip (a list page or an export asks for many at once). */
  getMany<T = unknown>(keys: readonly string[]): Promise<(T | undefined)[]>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Adds `by` (default 1, may be negative) to an integer counter atomically (Redis INCRBY, shared
   * by every instance) and returns the new value; the TTL is set when the counter is created.
   */
  incr(key: string, ttlSeconds: number, by?: number): Promise<number>;
  /** Seconds left before the key expires, or undefined when missing. */
  ttl(key: string): Promise<number | undefined>;
  close(): Promise<void>;
}
