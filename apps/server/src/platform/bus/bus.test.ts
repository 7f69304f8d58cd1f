import { describe, expect, it } from 'vitest';
import type { Bus } from './bus.ts';
import { MemoryBus } from './memoryBus.ts';
import { openCache } from '../cache/index.ts';
import { openBus } from './index.ts';
import { RedisBus } from './redisBus.ts';

const next = (bus: Bus, channel: string) =>
  new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message')), 3000);
    void bus.subscribe(channel, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
  });

describe('in-process bus', () => {
  it('delivers JSON copies to every subscriber, and stops after unsubscribe', async () => {
    const bus = new MemoryBus();
    const got: unknown[] = [];
    const off = await bus.subscribe('c', (m) => got.push(m));
    const other = next(bus, 'c');
    const sent = { user_ids: ['u1'] };
    await bus.publish('c', sent);
    expect(await other).toEqual(sent);
    expect(got).toEqual([sent]);
    expect(got[0]).not.toBe(sent);
    await off();
    await bus.publish('c', { n: 2 });
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toHaveLength(1);
    await bus.close();
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.runIf(redisUrl)('Redis bus', () => {
  it('delivers a message published on one connection to a subscriber on another', async () => {
    const prefix = `gh-test-${Date.now()}:`;
    const a = await RedisBus.connect(redisUrl!, prefix);
    const b = await RedisBus.connect(redisUrl!, prefix);
    try {
      const received = next(b, 'site_msg');
      await new Promise((r) => setTimeout(r, 50));
      await a.publish('site_msg', { user_ids: ['x'] });
      expect(await received).toEqual({ user_ids: ['x'] });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps two deployments with their own REDIS_PREFIX apart: neither keys nor messages cross', async () => {
    const stamp = Date.now();
    const [siteA, siteB] = [`gh-test-a${stamp}:`, `gh-test-b${stamp}:`];
    const [busA, busB, busA2] = await Promise.all([
      openBus(redisUrl, siteA),
      openBus(redisUrl, siteB),
      openBus(redisUrl, siteA),
    ]);
    const [cacheA, cacheB] = await Promise.all([openCache(redisUrl, siteA), openCache(redisUrl, siteB)]);
    try {
      const onB: unknown[] = [];
      await busB.subscribe('kill', (m) => onB.push(m));
      const onA2 = next(busA2, 'kill');
      await new Promise((r) => setTimeout(r, 50));
      await busA.publish('kill', { session: 's1' });
      expect(await onA2).toEqual({ session: 's1' });
      await cacheA.set('lock:admin', 1, 60);
      expect(await cacheA.get('lock:admin')).toBe(1);
      expect(await cacheB.get('lock:admin')).toBeUndefined();
      await new Promise((r) => setTimeout(r, 100));
      expect(onB).toEqual([]);
    } finally {
      await cacheA.delete('lock:admin');
      await Promise.all([busA.close(), busB.close(), busA2.close(), cacheA.close(), cacheB.close()]);
    }
  });
});
