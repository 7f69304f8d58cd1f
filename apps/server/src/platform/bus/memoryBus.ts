import type { Bus, BusHandler } from './bus.ts';

/** The embedded profile's bus: handlers of this process only, called asynchronously like Redis. */
export class MemoryBus implements Bus {
  private readonly channels = new Map<string, Set<BusHandler>>();

  async publish(channel: string, message: unknown): Promise<void> {
    const handlers = this.channels.get(channel);
    if (!handlers?.size) return;
    // Same isolation as a round trip through Redis: handlers get their own copy, later.
    const copy = JSON.stringify(message);
    for (const h of [...handlers]) {
      setImmediate(() => {
        try {
          h(JSON.parse(copy));
        } catch {
          // A failing handler must not stop the others.
        }
      });
    }
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(handler);
    return async () => {
      set.delete(handler);
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
