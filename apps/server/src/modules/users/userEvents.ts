import type { Bus } from '../../platform/bus/index.ts';

/**
 * Told on the bus when a user is deactivated or given an expiry date already past: modules that
 * keep something alive for a user (the gateway's sessions) end it on every instance.
 */
export const USER_DEACTIVATED_CHANNEL = 'users.deactivated';

export function announceDeactivated(bus: Bus, userId: string): Promise<void> {
  return bus.publish(USER_DEACTIVATED_CHANNEL, { user_id: userId });
}
