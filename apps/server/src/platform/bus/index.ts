import type { Bus } from './bus.ts';
import { MemoryBus } from './memoryBus.ts';
import { RedisBus } from './redisBus.ts';

export type { Bus, BusHandler } from './bus.ts';
export { MemoryBus } from './memoryBus.ts';

/** Redis pub/sub when `redisUrl` is set (channels under `<prefix>bus:`), else in-process. */
export async function openBus(redisUrl: string | undefined, prefix: string): Promise<Bus> {
  return redisUrl ? RedisBus.connect(redisUrl, `${prefix}bus:`) : new MemoryBus();
}
