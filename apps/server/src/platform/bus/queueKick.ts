import type { Bus } from './bus.ts';

/**
 * The channel that wakes a durable queue of the job engine (modules/ops/engine/engine.ts,
 * `addQueue`) on every instance; modules below the engine (the mail outbox) kick it through here.
 */
export const QUEUE_KICKED = 'ops.queues.kicked';

export async function kickQueue(bus: Bus, name: string): Promise<void> {
  await bus.publish(QUEUE_KICKED, { name });
}
