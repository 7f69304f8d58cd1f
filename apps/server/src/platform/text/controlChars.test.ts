import { describe, expect, it } from 'vitest';
import { escapeControls } from './controlChars.ts';

describe('escapeControls', () => {
  it('makes ESC, BEL, DEL, CR, LF and C1 characters visible, leaving other text alone', () => {
    expect(escapeControls('a\x1b]0;pwned\x07b\x7f\r\n\x9bc')).toBe('a\\x1b]0;pwned\\x07b\\x7f\\x0d\\x0a\\x9bc');
    expect(escapeControls('/tmp/報告 ü.txt')).toBe('/tmp/報告 ü.txt');
  });
});
