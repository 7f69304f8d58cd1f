import { describe, expect, it } from 'vitest';
import { joinJson, outputJson } from './outputJson.ts';

/** Output pieces encoded one by one make the same JSON as the whole output encoded at once. */
describe('output as JSON', () => {
  it('joins encoded pieces into the encoding of the joined text, escapes and all', () => {
    const pieces = ['gh$ ls\r\n', '"quoted" \\ back\x1b[31mred\x1b[0m', 'ünïcødé 漢字 🙂', '\t\x00\x07end\u2028'];
    const joined = joinJson(pieces.map((p) => outputJson(p)));
    expect(joined).toBe(JSON.stringify(pieces.join('')));
    expect(JSON.parse(joined)).toBe(pieces.join(''));
  });

  it('answers a piece encoded just before, and a different piece of the same length anew', () => {
    expect(outputJson('abc')).toBe('"abc"');
    expect(outputJson('abc')).toBe('"abc"');
    expect(outputJson('abd')).toBe('"abd"');
    expect(joinJson([outputJson('x')])).toBe('"x"');
  });
});
