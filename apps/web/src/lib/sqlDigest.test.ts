import { describe, expect, it } from 'vitest';
import { digestAdd, sqlDigest, sqlLevel, SQL_DIGEST_SIZE } from './sqlDigest.ts';

describe('the SQL digest', () => {
  it('keeps the last 10 URLs, newest first, one entry per URL', () => {
    let e = digestAdd([], 'http://h/api/v1/a/?x=1', 3);
    e = digestAdd(e, '/api/v1/b/', 7);
    e = digestAdd(e, '/api/v1/a/?x=1', 4);
    expect(e).toEqual([
      { url: '/api/v1/a/?x=1', count: 4 },
      { url: '/api/v1/b/', count: 7 },
    ]);
    for (let i = 0; i < 15; i++) e = digestAdd(e, `/api/v1/n${i}/`, i);
    expect(e).toHaveLength(SQL_DIGEST_SIZE);
    expect(e[0]).toEqual({ url: '/api/v1/n14/', count: 14 });
  });

  it('warns over 5 and is dangerous over 10', () => {
    expect(sqlLevel(5)).toBe('normal');
    expect(sqlLevel(6)).toBe('warning');
    expect(sqlLevel(10)).toBe('warning');
    expect(sqlLevel(11)).toBe('danger');
  });

  it('records header values and tells its listeners; missing or bad headers are ignored', () => {
    let calls = 0;
    const off = sqlDigest.subscribe(() => calls++);
    sqlDigest.record('/api/v1/q/', '12');
    sqlDigest.record('/api/v1/r/', null);
    sqlDigest.record('/api/v1/s/', 'abc');
    off();
    expect(calls).toBe(1);
    expect(sqlDigest.snapshot()[0]).toEqual({ url: '/api/v1/q/', count: 12 });
  });
});
