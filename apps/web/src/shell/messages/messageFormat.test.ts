import { describe, expect, it } from 'vitest';
import { badgeText, formatMessageDate, parseServerDate, unreadOfFrame } from './messageFormat.ts';

describe('site-message formatting', () => {
  it('caps the badge at 99+', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });

  it('shows dates within 7 days relatively and older ones in full', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(formatMessageDate('2026-11-23T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatMessageDate('2026-11-17T12:00:00Z', now)).toBe('6 days ago');
    const old = formatMessageDate('2026-11-01T12:00:00Z', now);
    expect(old).toMatch(/^2026-11-0[12] \d{2}:00:00$/);
  });

  it('reads the server date format with its offset', () => {
    expect(parseServerDate('2026/11/23 20:00:00 +0800').toISOString()).toBe('2026-11-23T12:00:00.000Z');
  });

  it('reads the unread count of a frame; other frames give nothing; bad JSON throws', () => {
    expect(unreadOfFrame('{"type":"unread_count","unread_count":4}')).toBe(4);
    expect(unreadOfFrame('{"type":"other"}')).toBeUndefined();
    expect(() => unreadOfFrame('not json')).toThrow();
  });
});
