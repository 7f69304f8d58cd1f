import type { Bus } from './bus.ts';
import { MemoryBus } from './memoryBus.ts';
import { RedisBus } from './redisBus.ts';

export type { Bus, BusHandler } from './bus.ts';
export { MemoryBus } from './memoryBus.ts';

export async function openBus(redisUrl: string | undefined): Promise<Bus> {
  return redisUrl ? RedisBus.connect(redisUrl) : new MemoryBus();
}
