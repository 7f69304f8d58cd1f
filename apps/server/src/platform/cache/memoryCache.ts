import type { Cache } from './cache.ts';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** The embedded profile's cache: a map with expiry, swept lazily and every minute. */
export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private live(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep(): void {
    const t = this.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= t) this.entries.delete(k);
  }

  async get<T>(key: string): Promise<T | undefined> {
    return this.live(key)?.value as T | undefined;
  }

  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    return keys.map((k) => this.live(k)?.value as T | undefined);
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async incr(key: string, ttlSeconds: number, by = 1): Promise<number> {
    const e = this.live(key);
    if (!e) {
      this.entries.set(key, { value: by, expiresAt: this.now() + ttlSeconds * 1000 });
      return by;
    }
    e.value = Number(e.value) + by;
    return e.value as number;
  }

  async ttl(key: string): Promise<number | undefined> {
    const e = this.live(key);
    return e ? Math.ceil((e.expiresAt - this.now()) / 1000) : undefined;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }
}
