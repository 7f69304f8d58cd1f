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
});
