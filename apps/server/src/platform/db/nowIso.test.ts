import { afterEach, describe, expect, it, vi } from 'vitest';
import { nowIso } from './schema.ts';

describe('nowIso', () => {
  afterEach(() => vi.useRealTimers());

  // Later than any stamp earlier tests in this worker took (the last stamp is process-wide).
  it('never repeats or goes back within a process, so newest-first lists keep the writing order', () => {
    vi.useFakeTimers({ now: new Date('2100-01-01T00:00:00.000Z') });
    const stamps = [nowIso(), nowIso(), nowIso()];
    expect(stamps).toEqual(['2100-01-01T00:00:00.000Z', '2100-01-01T00:00:00.001Z', '2100-01-01T00:00:00.002Z']);
    vi.setSystemTime(new Date('2100-01-01T00:00:05.000Z'));
    expect(nowIso()).toBe('2100-01-01T00:00:05.000Z');
    // The clock stepped back (NTP): stamps go on from the last one.
    vi.setSystemTime(new Date('2100-01-01T00:00:01.000Z'));
    expect(nowIso()).toBe('2100-01-01T00:00:05.001Z');
  });
});
