import { describe, expect, it } from 'vitest';
import { ClientLanguage, languageOfLocale } from './clientLanguage.ts';

describe('the language of a native SSH client', () => {
  it('reads zh and ja locales, anything else is English', () => {
    expect(languageOfLocale('zh_CN.UTF-8')).toBe('zh');
    expect(languageOfLocale('zh_TW')).toBe('zh');
    expect(languageOfLocale('ja_JP.eucJP')).toBe('ja');
    expect(languageOfLocale('C.UTF-8')).toBe('en');
    expect(languageOfLocale('fr_FR.UTF-8')).toBe('en');
  });

  it('ranks LC_ALL over LC_MESSAGES over LANG, ignores other variables, and defaults to English', () => {
    const c = new ClientLanguage();
    expect(c.lang).toBe('en');
    expect(c.set('TERM_PROGRAM', 'zh_CN.UTF-8')).toBe(false);
    expect(c.lang).toBe('en');
    expect(c.set('LANG', 'ja_JP.UTF-8')).toBe(true);
    expect(c.lang).toBe('ja');
    c.set('LC_MESSAGES', 'en_US.UTF-8');
    expect(c.lang).toBe('en');
    c.set('LC_ALL', 'zh_CN.UTF-8');
    expect(c.lang).toBe('zh');
    c.set('LC_ALL', '');
    expect(c.lang).toBe('en');
  });
});
