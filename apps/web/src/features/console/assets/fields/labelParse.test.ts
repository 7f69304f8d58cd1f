import { describe, expect, it } from 'vitest';
import { badLabels, formatLabel, labelColour, parseLabel } from './labelParse.ts';

describe('labels as name:value', () => {
  it('splits at the first colon and trims; both parts are required', () => {
    expect(parseLabel('env:prod')).toEqual({ name: 'env', value: 'prod' });
    expect(parseLabel(' url : http://x:8080 ')).toEqual({ name: 'url', value: 'http://x:8080' });
    for (const bad of ['env', ':prod', 'env:', ' : ', '']) expect(parseLabel(bad)).toBeNull();
    expect(formatLabel({ name: 'a', value: 'b' })).toBe('a:b');
  });

  it('flags typed entries that are neither known label ids nor name:value', () => {
    const known = new Set(['3f2c']);
    expect(badLabels(['3f2c', 'env:prod', 'oops', 'x:'], known)).toEqual(['oops', 'x:']);
    expect(badLabels([], known)).toEqual([]);
  });

  it('gives one colour per name', () => {
    expect(labelColour('env')).toBe(labelColour('env'));
    expect(typeof labelColour('team')).toBe('string');
  });
});
