import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitizeHtml.ts';

describe('sanitizeHtml', () => {
  it('keeps the allowed markup and drops scripts, handlers and unsafe links', () => {
    expect(sanitizeHtml('<p>Hi <b>bob</b></p>')).toBe('<p>Hi <b>bob</b></p>');
    expect(sanitizeHtml('<p onclick="x()">a<script>alert(1)</script></p>')).toBe('<p>a</p>');
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="https://example.com">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<img src=x onerror="alert(1)"><custom>text</custom>')).toBe('text');
  });
});
