import type { Cache } from '../../platform/cache/index.ts';

/**
 * Login-failure lock: a counter per username and client address; at the
 * limit the username is blocked for the lock time. Same scheme later serves MFA codes.
 */
export interface LockPolicy {
  limitCount: number;
  limitMinutes: number;
}

const counterKey = (kind: string, username: string, ip: string) => `_${kind}_LIMIT_${username}_${ip}`;
const blockKey = (kind: string, username: string) => `_${kind}_BLOCK_${username}`;

export class Lockout {
  constructor(
    private readonly cache: Cache,
    private readonly kind: 'LOGIN' | 'MFA' = 'LOGIN',
  ) {}

  async isBlocked(username: string): Promise<boolean> {
    return (await this.cache.get(blockKey(this.kind, username))) !== undefined;
  }

  /** Records a failure; returns the tries left (0 means the username is now blocked). */
  async fail(username: string, ip: string, policy: LockPolicy): Promise<number> {
    const ttl = policy.limitMinutes * 60;
    const count = await this.cache.incr(counterKey(this.kind, username, ip), ttl);
    const left = Math.max(0, policy.limitCount - count);
    if (left === 0) {
      await this.cache.set(blockKey(this.kind, username), 1, ttl);
      await this.cache.delete(counterKey(this.kind, username, ip));
    }
    return left;
  }

  async succeed(username: string, ip: string): Promise<void> {
    await this.cache.delete(counterKey(this.kind, username, ip));
  }

  async unblock(username: string): Promise<void> {
    await this.cache.delete(blockKey(this.kind, username));
  }
}
