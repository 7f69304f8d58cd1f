import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './password.ts';

describe('password hashing (scrypt)', () => {
  it('verifies the right password and rejects others; hashes are salted', async () => {
    const h1 = await hashPassword('correct horse');
    const h2 = await hashPassword('correct horse');
    expect(h1).not.toBe(h2);
    expect(h1).toMatch(/^scrypt\$15\$8\$1\$/);
    expect(await verifyPassword('correct horse', h1)).toBe(true);
    expect(await verifyPassword('correct horsE', h1)).toBe(false);
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
