import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ECHO_WAIT_MAX_MS, EchoClock } from './echoClock.ts';

/** The echo clock on fake time: when Enter may read the line over a link with a 600 ms round trip. */
const RTT = 600;
let clock: EchoClock;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  clock = new EchoClock();
  clock.seed(RTT);
});
afterEach(() => vi.useRealTimers());

/** Keys sent every `gap` ms, each echoed RTT later; resolves when Enter's wait is over. */
async function typeThenEnter(
  keys: number,
  gap: number,
): Promise<{ result: string; waited: number; echoedAll: boolean }> {
  let echoed = 0;
  for (let k = 0; k < keys; k++) {
    clock.sent(true);
    setTimeout(() => {
      echoed++;
      clock.output();
    }, RTT);
    if (k < keys - 1) await vi.advanceTimersByTimeAsync(gap);
  }
  const start = Date.now();
  const wait = clock.caughtUp();
  let result = '';
  void wait.then((r) => (result = r));
  while (!result) await vi.advanceTimersByTimeAsync(10);
  return { result, waited: Date.now() - start, echoedAll: echoed === keys };
}

describe('EchoClock', () => {
  it('waits at Enter until the echo of the last key came, though older echoes keep arriving', async () => {
    const r = await typeThenEnter(10, 40);
    expect(r).toMatchObject({ result: 'echoed', echoedAll: true });
    expect(r.waited).toBeGreaterThanOrEqual(RTT);
  });

  it('learns the round trip from quiet keys, so Enter then waits about one round trip', async () => {
    for (let i = 0; i < 12; i++) {
      await typeThenEnter(5, 40);
      await vi.advanceTimersByTimeAsync(2000);
    }
    expect(clock.smoothed).toBeCloseTo(RTT, 0);
    const r = await typeThenEnter(5, 40);
    expect(r).toMatchObject({ result: 'echoed', echoedAll: true });
    expect(r.waited).toBeLessThan(RTT + 100);
  });

  it('replaces the provisional seed (opening the shell takes several round trips) with the first key timed', async () => {
    clock = new EchoClock();
    clock.seed(3 * RTT);
    const first = await typeThenEnter(5, 40);
    expect(first).toMatchObject({ result: 'echoed', echoedAll: true });
    expect(clock.smoothed).toBe(RTT);
    // Enter pressed after the whole line was echoed: read at once, not after a timeout.
    for (let k = 0; k < 3; k++) {
      clock.sent(true);
      setTimeout(() => clock.output(), RTT);
      await vi.advanceTimersByTimeAsync(40);
    }
    await vi.advanceTimersByTimeAsync(RTT + 300);
    const start = Date.now();
    let result = '';
    void clock.caughtUp().then((r) => (result = r));
    while (!result) await vi.advanceTimersByTimeAsync(10);
    expect(result).toBe('echoed');
    expect(Date.now() - start).toBeLessThan(100);
  });

  it('gives up on keys never echoed (a password) after about one round trip, not the full timeout', async () => {
    clock.sent(true);
    await vi.advanceTimersByTimeAsync(40);
    clock.sent(true);
    const start = Date.now();
    let result = '';
    void clock.caughtUp().then((r) => (result = r));
    while (!result) await vi.advanceTimersByTimeAsync(10);
    expect(result).toBe('unechoed');
    expect(Date.now() - start).toBeLessThan(ECHO_WAIT_MAX_MS);
    // Typed slower than a round trip: Enter does not wait at all.
    clock.sent(true);
    await vi.advanceTimersByTimeAsync(4000);
    clock.sent(true);
    await vi.advanceTimersByTimeAsync(4000);
    expect(await clock.caughtUp()).toBe('unechoed');
    // That unanswered key is no sample: the prompt printed after Enter does not teach a long delay.
    clock.output();
    expect(clock.smoothed).toBe(RTT);
  });

  it('takes an echo that came sooner than usual once nothing more came by its due time, not at the timeout', async () => {
    clock.sent(true);
    await vi.advanceTimersByTimeAsync(50);
    clock.output();
    const start = Date.now();
    let result = '';
    void clock.caughtUp().then((r) => (result = r));
    while (!result) await vi.advanceTimersByTimeAsync(10);
    expect(result).toBe('echoed');
    expect(Date.now() - start).toBeLessThan(2 * RTT + 200);
  });

  it('ends a wait at once when the session ends', async () => {
    clock.sent(true);
    const wait = clock.caughtUp();
    await vi.advanceTimersByTimeAsync(10);
    clock.stop();
    expect(await wait).toBe('stopped');
  });
});
