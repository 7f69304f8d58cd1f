import { describe, expect, it } from 'vitest';
import { countdown } from './countdown.ts';

describe('the connection-token countdown', () => {
  it('shows hours, minutes and seconds left, days when more than one, and zero once expired', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(countdown('2026-01-01T00:04:05Z', now)).toBe('00:04:05');
    expect(countdown('2026-01-31T03:04:05Z', now)).toBe('30d 03:04:05');
    expect(countdown('2025-12-31T23:59:00Z', now)).toBe('00:00:00');
  });
});
