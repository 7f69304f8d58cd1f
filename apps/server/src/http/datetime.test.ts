import { describe, expect, it } from 'vitest';
import { formatDateTime } from './datetime.ts';

describe('datetime output (api-contract §1.7)', () => {
  it('formats in the requested zone with its offset, including DST and half-hour zones', () => {
    expect(formatDateTime('2026-01-15T12:00:00.000Z')).toBe('2026/01/15 12:00:00 +0000');
    expect(formatDateTime('2026-01-15T12:00:00.000Z', 'Asia/Shanghai')).toBe('2026/01/15 20:00:00 +0800');
    expect(formatDateTime('2026-01-15T12:00:00.000Z', 'America/New_York')).toBe('2026/01/15 07:00:00 -0500');
    expect(formatDateTime('2026-07-15T12:00:00.000Z', 'America/New_York')).toBe('2026/07/15 08:00:00 -0400');
    expect(formatDateTime('2026-01-15T12:00:00.000Z', 'Asia/Kolkata')).toBe('2026/01/15 17:30:00 +0530');
    expect(formatDateTime('2026-01-01T00:30:00.000Z', 'America/St_Johns')).toBe('2025/12/31 21:00:00 -0330');
  });

  it('gives null for empty or invalid values', () => {
    expect(formatDateTime(null)).toBeNull();
    expect(formatDateTime('')).toBeNull();
    expect(formatDateTime('not a date')).toBeNull();
  });
});
