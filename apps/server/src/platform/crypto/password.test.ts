import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, PRODUCTION_LOG_N, setHashCost, verifyPassword } from './password.ts';
import { TEST_HASH_LOG_N } from '../../../test-support/setup.ts';

describe('password hashing (scrypt)', () => {
  // The suites hash at a cheaper cost (test-support/setup.ts); this file checks the product's.
  beforeAll(() => setHashCost(PRODUCTION_LOG_N));
  afterAll(() => setHashCost(TEST_HASH_LOG_N));

  it('verifies the right password and rejects others; hashes are salted', async () => {
    const h1 = await hashPassword('correct horse');
    const h2 = await hashPassword('correct horse');
    expect(h1).not.toBe(h2);
    expect(h1).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(await verifyPassword('correct horse', h1)).toBe(true);
    expect(await verifyPassword('correct horsE', h1)).toBe(false);
  });

  it('verifies a hash with the cost it carries, whatever the cost of new hashes', async () => {
    setHashCost(TEST_HASH_LOG_N);
    const cheap = await hashPassword('correct horse');
    setHashCost(PRODUCTION_LOG_N);
    expect(cheap).toMatch(new RegExp(`^scrypt\\$${TEST_HASH_LOG_N}\\$`));
    expect(await verifyPassword('correct horse', cheap)).toBe(true);
    expect(await verifyPassword('wrong horse', cheap)).toBe(false);
  });

  it('rejects when there is no stored hash or it is malformed', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
  });

  it('generates passwords with letters, digits and a special character', () => {
    const p = generatePassword();
    expect(p).toHaveLength(20);
    expect(p).toMatch(/[A-Za-z]/);
    expect(p).toMatch(/\d$/);
    expect(p).toMatch(/[@#%+]/);
  });
});
