import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@gatehouse/contract';
import { LOCALES_DIR, catalogue, tr } from './catalogue.ts';

const areas = (lang: string) =>
  fs
    .readdirSync(path.join(LOCALES_DIR, lang))
    .filter((f) => f.endsWith('.json'))
    .sort();
const read = (lang: string, file: string) =>
  JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, lang, file), 'utf8')) as Record<string, unknown>;
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('server message catalogues', () => {
  it('have one folder per language of the product, with the same files', () => {
    const dirs = fs.readdirSync(LOCALES_DIR).sort();
    expect(dirs).toEqual([...LANGUAGES].sort());
    const en = areas('en');
    expect(en.length).toBeGreaterThan(0);
    for (const lang of LANGUAGES) expect(areas(lang), lang).toEqual(en);
  });

  it('give every English key a text in every language, with the same placeholders, and nothing extra', () => {
    for (const file of areas('en')) {
      const en = read('en', file);
      for (const lang of LANGUAGES) {
        const other = read(lang, file);
        expect(Object.keys(other).sort(), `${lang}/${file}`).toEqual(Object.keys(en).sort());
        for (const [key, value] of Object.entries(other)) {
          expect(typeof value === 'string' && value.trim() !== '', `${lang}/${file} ${key} is empty`).toBe(true);
          expect(placeholders(value as string), `${lang}/${file} ${key} placeholders`).toEqual(
            placeholders(en[key] as string),
          );
        }
      }
    }
  });

  it('looks messages up by key in the request language and fills named placeholders', () => {
    const M = catalogue<{ method_not_allowed: string }>('http');
    expect(tr('en', M.method_not_allowed, { method: 'PUT' })).toBe('Method "PUT" not allowed.');
    expect(tr('zh', M.method_not_allowed, { method: 'PUT' })).toContain('PUT');
    expect(() => catalogue('no-such-area')).toThrow(/no English catalogue/);
  });
});
