import { describe, expect, it } from 'vitest';
import { parseQueryString, queryFlag, queryInt } from './queryString.ts';

describe('query values read as the original reads them', () => {
  it('reads integers as Python’s int(): whitespace around, a sign, underscores between digits', () => {
    expect(queryInt(' 7 ')).toBe(7);
    expect(queryInt('\t10\n')).toBe(10);
    expect(queryInt('+3')).toBe(3);
    expect(queryInt('-2')).toBe(-2);
    expect(queryInt('1_000')).toBe(1000);
    for (const bad of ['', ' ', '7 days', '1.5', '0x10', '1__0', '_1', '9223372036854775808', undefined])
      expect(queryInt(bad)).toBeUndefined();
  });

  it('reads a switch as on for the truthy spellings only, in any case, trimmed', () => {
    for (const on of ['1', 'true', 'True', ' TRUE ', 'yes', 'on', 't', 'Y']) expect(queryFlag(on)).toBe(true);
    for (const off of ['0', 'false', 'no', 'off', '', '2', undefined]) expect(queryFlag(off)).toBe(false);
  });

  it('keeps values as sent (a search term keeps its spaces); the last of a repeated key wins', () => {
    expect(parseQueryString('search=%20a%20b%20&days=1&days=%207%20')).toEqual({ search: ' a b ', days: ' 7 ' });
  });
});
