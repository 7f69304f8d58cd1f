import { describe, expect, it } from 'vitest';
import { usernameProblem } from './username.ts';

describe('the username rule', () => {
  it('accepts letters of any script, digits, _ - . @ (directory names)', () => {
    for (const ok of [
      'sdk-user',
      'john.doe',
      'ops-bot',
      'j.doe@corp.example',
      'user_1',
      '张三',
      'Ñandú',
      'हिन्दी',
      'ユーザー',
    ])
      expect(usernameProblem(ok), ok).toBeUndefined();
  });

  it('refuses emoji, spaces, control characters and other punctuation, each with its reason', () => {
    expect(usernameProblem('bot😀')).toBe('emoji');
    expect(usernameProblem('❤️')).toBe('emoji');
    expect(usernameProblem('john doe')).toBe('space');
    expect(usernameProblem('tab\there')).toBe('space');
    expect(usernameProblem('bell\u0007')).toBe('space');
    expect(usernameProblem('zero\u200bwidth')).toBe('space');
    for (const bad of ['a/b', 'a:b', "o'neil", 'a+b', 'a#b', '']) expect(usernameProblem(bad), bad).toBe('chars');
  });
});
