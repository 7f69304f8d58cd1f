import { Redis } from 'ioredis';
import type { Bus, BusHandler } from './bus.ts';

/**
 * The scale-out profile's bus: Redis pub/sub shared by every instance. One connection publishes,
 * one subscribes (a subscribing Redis connection can do nothing else); channels carry a prefix.
 */
export class RedisBus implements Bus {
  private readonly handlers = new Map<string, Set<BusHandler>>();

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
  ) {
    sub.on('message', (channel: string, raw: string) => {
      const set = this.handlers.get(channel);
      if (!set?.size) return;
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return;
      }
      for (const h of [...set]) {
        try {
          h(message);
        } catch {
          // A failing handler must not stop the others.
        }
      }
    });
  }

  static async connect(url: string, prefix = 'gatehouse:bus:'): Promise<RedisBus> {
    const open = async () => {
      const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5000 });
      r.on('error', () => undefined);
      await r.connect();
      return r;
    };
    let pub: Redis | undefined;
    try {
      pub = await open();
      const sub = await open();
      return new RedisBus(pub, sub, prefix);
    } catch (e) {
      pub?.disconnect();
      throw new Error(`cannot reach Redis (${(e as Error).message})`);
    }
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.pub.publish(this.prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const key = this.prefix + channel;
    let set = this.handlers.get(key);
    if (!set) {
      this.handlers.set(key, (set = new Set()));
      await this.sub.subscribe(key);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(key) === set) {
        this.handlers.delete(key);
        await this.sub.unsubscribe(key).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}
