import { describe, expect, it } from 'vitest';
import { secretIsValid, useReverifyStore } from './reverifyStore.ts';

describe('the re-verification request', () => {
  it('shares one dialog between concurrent calls and answers all of them', async () => {
    const a = useReverifyStore.getState().ask('password');
    const b = useReverifyStore.getState().ask('mfa');
    expect(useReverifyStore.getState().type).toBe('password');
    useReverifyStore.getState().finish(true);
    expect(await Promise.all([a, b])).toEqual([true, true]);
    expect(useReverifyStore.getState().type).toBeUndefined();
  });

  it('checks the OTP length of 6', () => {
    expect(secretIsValid('mfa', 'otp', '12345')).toBe(false);
    expect(secretIsValid('mfa', 'otp', '123456')).toBe(true);
    expect(secretIsValid('password', undefined, '')).toBe(false);
    expect(secretIsValid('password', undefined, 'x')).toBe(true);
  });
});
