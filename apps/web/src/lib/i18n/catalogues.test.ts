import { describe, expect, it } from 'vitest';
import en from './locales/en.ts';
import ja from './locales/ja.ts';
import zh from './locales/zh.ts';

const CATALOGUES = { en: en.catalogue, zh: zh.catalogue, ja: ja.catalogue };

function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('translation catalogues', () => {
  it('give every English key a Chinese and a Japanese text, and nothing extra', () => {
    const en = keys(CATALOGUES.en).sort();
    expect(en.length).toBeGreaterThan(10);
    expect(keys(CATALOGUES.zh).sort()).toEqual(en);
    expect(keys(CATALOGUES.ja).sort()).toEqual(en);
  });

  it('have no empty texts', () => {
    for (const lang of ['en', 'zh', 'ja'] as const) {
      const empty = keys(CATALOGUES[lang]).filter((k) => {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], CATALOGUES[lang]);
        return typeof v !== 'string' || v.trim() === '';
      });
      expect(empty, lang).toEqual([]);
    }
  });
});
