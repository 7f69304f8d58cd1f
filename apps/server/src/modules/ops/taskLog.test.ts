import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../../platform/cache/memoryCache.ts';
import { openTaskLog, readTaskLog, taskLogMeta } from './taskLog.ts';

describe('task log', () => {
  it('keeps lines in order, reads on from a position in bounded chunks, and ends', async () => {
    const cache = new MemoryCache();
    expect(await taskLogMeta(cache, 't1')).toBeUndefined();
    const log = await openTaskLog(cache, 't1', 'u1');
    expect(await readTaskLog(cache, 't1', 0)).toEqual({ text: '', next: 0, ended: false });
    for (let i = 0; i < 5; i++) await log.write(`line ${i} ${'x'.repeat(10)}`);
    const first = await readTaskLog(cache, 't1', 0, 40);
    expect(first.text).toBe('line 0 xxxxxxxxxx\nline 1 xxxxxxxxxx\n');
    expect(first).toMatchObject({ next: 2, ended: false });
    await log.end();
    const rest = await readTaskLog(cache, 't1', first.next);
    expect(rest).toEqual({ text: 'line 2 xxxxxxxxxx\nline 3 xxxxxxxxxx\nline 4 xxxxxxxxxx\n', next: 5, ended: true });
    expect(await taskLogMeta(cache, 't1')).toEqual({ user_id: 'u1', ended: true });
  });

  it('does not skip a line counted but not written yet: a reader in between reads it next time', async () => {
    const cache = new MemoryCache();
    const log = await openTaskLog(cache, 't2', 'u1');
    await log.write('first');
    // A writer between its count and its line: the count says 2, line 2 is not there yet.
    await cache.incr('gh:tasklog:t2:n', 60);
    const early = await readTaskLog(cache, 't2', 0);
    expect(early).toEqual({ text: 'first\n', next: 1, ended: false });
    await cache.set('gh:tasklog:t2:2', 'second\n', 60);
    expect(await readTaskLog(cache, 't2', early.next)).toEqual({ text: 'second\n', next: 2, ended: false });
  });
});
