import type { Cache } from '../../platform/cache/index.ts';

/**
 * Login-failure lock: a counter per username and client address; at the
 * limit the username is blocked for the lock time. Same scheme serves MFA codes.
 *
 * An attempt is counted **before** the secret is checked (`attempt`), with the cache's atomic
 * increment (Redis INCR across instances): of N concurrent attempts only the first `limitCount`
 * reach the slow password hash, whatever their order, and an attempt beyond the limit is refused
 * even when its password is right.
 */
export interface LockPolicy {
  limitCount: number;
  limitMinutes: number;
}

const counterKey = (kind: string, username: string, ip: string) => `_${kind}_LIMIT_${username}_${ip}`;
const blockKey = (kind: string, username: string) => `_${kind}_BLOCK_${username}`;

/** A counted attempt: `allowed` false means refused without looking at the secret. */
export interface Attempt {
  allowed: boolean;
  count: number;
}

export class Lockout {
  constructor(
    private readonly cache: Cache,
    private readonly kind: 'LOGIN' | 'MFA' = 'LOGIN',
  ) {}

  async isBlocked(username: string): Promise<boolean> {
    return (await this.cache.get(blockKey(this.kind, username))) !== undefined;
  }

  /**
   * Counts an attempt before the secret is checked. The block is read again after the increment:
   * the failure that closes the lock sets the block before it resets the counter, so an attempt
   * that raced past the first check and counted on a reset counter still sees the block.
   */
  async attempt(username: string, ip: string, policy: LockPolicy): Promise<Attempt> {
    if (await this.isBlocked(username)) return { allowed: false, count: 0 };
    const key = counterKey(this.kind, username, ip);
    const count = await this.cache.incr(key, policy.limitMinutes * 60);
    if (count > policy.limitCount) return { allowed: false, count };
    if (await this.isBlocked(username)) {
      await this.cache.incr(key, policy.limitMinutes * 60, -1);
      return { allowed: false, count };
    }
    return { allowed: true, count };
  }

  /** After a counted attempt failed: returns the tries left (0 means the username is now blocked). */
  async failed(username: string, ip: string, policy: LockPolicy, attempt: Attempt): Promise<number> {
    const left = Math.max(0, policy.limitCount - attempt.count);
    if (left === 0) {
      await this.cache.set(blockKey(this.kind, username), 1, policy.limitMinutes * 60);
      await this.cache.delete(counterKey(this.kind, username, ip));
    }
    return left;
  }

  /** Counts and records a failure in one step, for secrets checked before they are counted (MFA codes). */
  async fail(username: string, ip: string, policy: LockPolicy): Promise<number> {
    const count = await this.cache.incr(counterKey(this.kind, username, ip), policy.limitMinutes * 60);
    return this.failed(username, ip, policy, { allowed: true, count });
  }

  /** Gives a counted attempt back: the check could not be made (a directory that did not answer). */
  async release(username: string, ip: string, policy: LockPolicy): Promise<void> {
    await this.cache.incr(counterKey(this.kind, username, ip), policy.limitMinutes * 60, -1);
  }

  async succeed(username: string, ip: string): Promise<void> {
    await this.cache.delete(counterKey(this.kind, username, ip));
  }

  async unblock(username: string): Promise<void> {
    await this.cache.delete(blockKey(this.kind, username));
  }
}

/**
 * Per-address throttling of sign-ins across usernames (the "Global IP" lock,
 * `_LOGIN_LIMIT_<ip>` / `_LOGIN_BLOCK_<ip>`): password spraying from one address stops at
 * `SECURITY_LOGIN_IP_LIMIT_COUNT` failures within `SECURITY_LOGIN_IP_LIMIT_TIME` minutes. Like
 * the user lock, an attempt counts before the password is checked; a success gives its count back,
 * so only failures add up.
 */
export class AddressLock {
  constructor(private readonly cache: Cache) {}

  private counter = (ip: string) => `_LOGIN_LIMIT_${ip}`;
  private block = (ip: string) => `_LOGIN_BLOCK_${ip}`;

  async isBlocked(ip: string): Promise<boolean> {
    return (await this.cache.get(this.block(ip))) !== undefined;
  }

  async attempt(ip: string, policy: LockPolicy): Promise<Attempt> {
    if (await this.isBlocked(ip)) return { allowed: false, count: 0 };
    const count = await this.cache.incr(this.counter(ip), policy.limitMinutes * 60);
    if (count > policy.limitCount) return { allowed: false, count };
    return { allowed: true, count };
  }

  async failed(ip: string, policy: LockPolicy, attempt: Attempt): Promise<void> {
    if (attempt.count < policy.limitCount) return;
    await this.cache.set(this.block(ip), 1, policy.limitMinutes * 60);
    await this.cache.delete(this.counter(ip));
  }

  async succeeded(ip: string, policy: LockPolicy): Promise<void> {
    await this.cache.incr(this.counter(ip), policy.limitMinutes * 60, -1);
  }

  async unblock(ip: string): Promise<void> {
    await this.cache.delete(this.block(ip));
    await this.cache.delete(this.counter(ip));
  }
}
