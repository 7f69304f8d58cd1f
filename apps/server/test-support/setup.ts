import { setHashCost } from '../src/platform/crypto/password.ts';

/**
 * Runs before every server test file (vitest `setupFiles`) and in the suites' global set-up.
 * Passwords are hashed at scrypt N=2^10 instead of the product's 2^15: the suites create thousands
 * of users, and a stored hash carries its cost, so signing in verifies it the same way. The hashing
 * module's own test (platform/crypto/password.test.ts) checks the product's cost.
 */
export const TEST_HASH_LOG_N = 10;
setHashCost(TEST_HASH_LOG_N);
